@preconcurrency import Glibc
import ScoreboardMQTT
import TestSupport
import Testing

/// The broker killed and started again in the middle of a burst of changes: the board
/// never waits for it, publishes its state again once it is back, and carries out no
/// command twice.
@Suite(
  .serialized,
  .enabled(
    if: MosquittoBroker.isAvailable, "needs mosquitto, mosquitto-clients and openssl (make deps)"))
struct MQTTFaultTests {
  static let fields = """
    [field home]
    position = 1
    digits = 4
    max = 9999

    [field away]
    position = 5
    digits = 2
    """

  /// A board with the test's fields on `broker`, once it is online there, and a control
  /// client of it.
  static func startBoard(on broker: MosquittoBroker) throws -> (DaemonProcess, ControlClient) {
    let folder = try TemporaryFolder()
    let daemon = try MQTTTests.start(
      MQTTTests.configuration(in: folder, broker: broker.url, fields: Self.fields), in: folder)
    #expect(
      try MQTTTests.waitForRetained(broker, MQTTTests.base + "/status") { $0 == "online" } != nil)
    return (daemon, try ControlClient(path: folder.path(of: "control")))
  }

  @Test func theBrokerRestartsDuringABurstOfChanges() throws {
    let broker = try MosquittoBroker()
    let (daemon, control) = try Self.startBoard(on: broker)
    let command = #"{"id":"desk-7","request":"add away +1"}"#
    try broker.publish(MQTTTests.base + "/command", command)
    try broker.publish(MQTTTests.base + "/command", command)

    var latencies: [Double] = []
    for index in 0..<1000 {
      if index == 300 {
        broker.kill()
      }
      if index == 600 {
        try broker.start()
      }
      let start = MosquittoBroker.now()
      let answer = control.request("add home +1")
      latencies.append(MosquittoBroker.now() - start)
      #expect(answer == "ok home \(index + 1)")
    }
    // The same command once more, after the broker came back.
    #expect(
      try MQTTTests.waitForRetained(broker, MQTTTests.base + "/status") { $0 == "online" } != nil)
    try broker.publish(MQTTTests.base + "/command", command)
    let retained = try MQTTTests.waitForRetained(broker, MQTTTests.base + "/state") {
      $0.contains("\"home\":{\"shown\":\"1000\",\"value\":1000}")
    }
    #expect(retained != nil)
    #expect(control.request("get home") == "ok 1000")
    #expect(control.request("get away") == "ok 1", "desk-7 was carried out once")
    let document = try JSONValue.parse(try #require(retained))
    #expect(document["fields"]?["away"]?["value"]?.intValue == 1)

    latencies.sort()
    let p50 = latencies[latencies.count / 2] * 1000
    let p99 = latencies[latencies.count * 99 / 100] * 1000
    let slowest = latencies.last! * 1000
    print(
      "MQTT fault run: 1000 changes over the control socket, broker killed at 300 and back "
        + "at 600: p50 \(p50) ms, p99 \(p99) ms, slowest \(slowest) ms")
    // Not a performance target (make bench measures those): a board that waited for a
    // broker that is away would take seconds here.
    #expect(slowest < 1000)
    #expect(daemon.waitForStderr { $0.contains("MQTT: connection to \(broker.url) lost") })
  }

  /// Changes published to a broker that stopped answering are never delivered late, by
  /// the next connection: a subscriber of the restarted broker sees only the board's
  /// state as it is, never an older one.
  @Test func whatALostConnectionDidNotDeliverIsNeverSentLate() throws {
    let broker = try MosquittoBroker()
    let (daemon, control) = try Self.startBoard(on: broker)

    broker.pause()
    for score in 1...3 {
      #expect(control.request("set home \(score)") == "ok home \(score)")
    }
    // The board has sent into the paused broker's socket (what it did not send waits in
    // its client's queue).
    #expect(waitUntil { broker.unreadBytes > 0 })
    broker.kill()
    #expect(daemon.waitForStderr { $0.contains("MQTT: connection to \(broker.url) lost") })
    #expect(control.request("set home 10") == "ok home 10")

    try broker.start()
    let subscriber = try broker.subscribe(MQTTTests.base + "/state", count: 50, timeout: 4)
    var published: [Int64] = []
    _ = subscriber.waitForLine(timeout: 8) { line in
      let payload = line.drop { $0 != " " }.dropFirst()
      if let document = try? JSONValue.parse(String(payload)),
        let home = document["fields"]?["home"]?["value"]?.intValue
      {
        published.append(home)
      }
      return false
    }
    #expect(!published.isEmpty, "the board published its state again after reconnecting")
    #expect(published.allSatisfy { $0 == 10 }, "home as published: \(published)")
  }
}
