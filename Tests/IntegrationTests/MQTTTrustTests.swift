@preconcurrency import Glibc
import TestSupport
import Testing

/// What a broker and the clients on it cannot do to a board: a retained command is
/// never carried out, a request id is carried out once across restarts too, bursts at
/// every QoS keep the board on the broker, oversized messages cost no memory, and a
/// mirror is live only once it has read a good document.
@Suite(
  .serialized,
  .enabled(
    if: MosquittoBroker.isAvailable, "needs mosquitto, mosquitto-clients and openssl (make deps)"))
struct MQTTTrustTests {
  static let base = MQTTTests.base
  static let fields = """
    [field home]
    position = 1
    digits = 4
    max = 9999

    [field period]
    position = 5
    values = 1 2 3 OT
    """

  /// Waits until `field` of the board whose control socket is in `folder` has `value`:
  /// a watcher, registered first, hears the change; a value that came before is read.
  static func waitForValue(
    in folder: TemporaryFolder, _ field: String, _ value: String, timeout: Double = 30
  ) throws -> Bool {
    let watcher = try ControlClient(path: folder.path(of: "control"))
    guard watcher.request("watch") == "ok watching" else { return false }
    let control = try ControlClient(path: folder.path(of: "control"))
    if control.request("get \(field)") == "ok \(value)" { return true }
    let deadline = MosquittoBroker.now() + timeout
    while let line = watcher.readLine(timeout: max(deadline - MosquittoBroker.now(), 0)) {
      if line == "event value \(field) \(value)" { return true }
    }
    return false
  }

  /// Starts a board on `broker` and waits until it is online there. At `notice`, the log
  /// of a burst does not fill the pipe the test reads it from only now and then.
  static func startBoard(
    _ broker: MosquittoBroker, in folder: TemporaryFolder, logLevel: String = "info"
  ) throws -> DaemonProcess {
    let daemon = try MQTTTests.start(
      """
      \(ScoreboardSection.text(in: folder, logLevel: logLevel))

      [display main]
      driver = terminal
      digits = 6

      \(fields)

      [mqtt]
      broker = \(broker.url)
      topic = \(base)
      client-id = court-1
      """, in: folder)
    #expect(
      try MQTTTests.waitForRetained(broker, base + "/status") { $0 == "online" } != nil)
    return daemon
  }

  @Test func aRetainedCommandIsNeverCarriedOut() throws {
    let broker = try MosquittoBroker()
    try broker.publish(Self.base + "/command", "add home +1", extra: ["-r"])
    let folder = try TemporaryFolder()
    var daemon = try Self.startBoard(broker, in: folder)
    let refusal = "a retained message on \(Self.base)/command is not carried out"
    #expect(daemon.waitForStderr { $0.contains(refusal) })
    try broker.publish(Self.base + "/command", "add home +2")
    #expect(try Self.waitForValue(in: folder, "home", "2"))

    // Nor at the next start.
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    daemon = try Self.startBoard(broker, in: folder)
    #expect(daemon.waitForStderr { $0.contains(refusal) })
    try broker.publish(Self.base + "/command", "add home +2")
    #expect(try Self.waitForValue(in: folder, "home", "4"))

    // Nor when it is published while the board runs.
    try broker.publish(Self.base + "/command", "add home +10", extra: ["-r"])
    try broker.publish(Self.base + "/command", "add home +1")
    #expect(try Self.waitForValue(in: folder, "home", "5"))
    // The board clears nothing it does not own.
    #expect(try broker.retained(Self.base + "/command") == "add home +10")
  }

  @Test func aRequestIDIsCarriedOutOnceAcrossRestarts() throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let daemon = try Self.startBoard(broker, in: folder)
    let request = #"{"id":"desk-7","request":"add home +3"}"#
    try broker.publish(Self.base + "/command", request)
    #expect(try Self.waitForValue(in: folder, "home", "3"))
    // The id is saved with the score (the event above comes before the save; the reply
    // would come after it); then the board is killed outright.
    #expect(waitUntil { folder.readNewest("state")?.contains("desk-7") == true })
    daemon.send(signal: SIGKILL)
    _ = daemon.waitForExit()

    let restarted = try Self.startBoard(broker, in: folder)
    try broker.publish(Self.base + "/command", request)
    try broker.publish(Self.base + "/command", "add home +1")
    #expect(try Self.waitForValue(in: folder, "home", "4"))
    #expect(
      restarted.waitForStderr { $0.contains("command desk-7 came again") },
      "\(restarted.stderrText)")
  }

  @Test(arguments: [0, 1, 2])
  func aBurstKeepsTheBoardOnTheBroker(qos: Int) throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let daemon = try Self.startBoard(broker, in: folder, logLevel: "notice")
    let burst = try DaemonProcess(
      executable: "/bin/sh",
      arguments: [
        "-c",
        "yes 'add home +1' | head -n 3000 | \(MosquittoBroker.publisher) -h 127.0.0.1 "
          + "-p \(broker.port) -t \(Self.base)/command -q \(qos) -l",
      ])
    #expect(burst.waitForExit(timeout: 60) == 0)
    // Published after the burst by another client: the broker delivers it after it.
    try broker.publish(Self.base + "/command", "set period OT")
    let control = try ControlClient(path: folder.path(of: "control"))
    #expect(try Self.waitForValue(in: folder, "period", "OT", timeout: 60))
    let home = control.request("get home").flatMap { Int($0.dropFirst(3)) } ?? -1
    if home != 3000 {
      print(burst.stderrText, daemon.stderrText.suffix(3000))
    }
    if qos == 0 {
      #expect((0...3000).contains(home))
    } else {
      #expect(home == 3000)
    }
    #expect(control.request("status")?.contains("mqtt=connected") == true)
    #expect(!daemon.stderrText.contains("connection to \(broker.url) lost"))
  }

  /// The resident memory of process `pid`, in kB.
  static func residentKilobytes(_ pid: pid_t) -> Int? {
    let fd = open("/proc/\(pid)/status", O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 8192)
    let count = read(fd, &bytes, bytes.count)
    guard count > 0 else { return nil }
    let text = String(decoding: bytes[..<count], as: UTF8.self)
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Int(line.split(separator: " ")[1])
  }

  @Test func oversizedMessagesChangeNothingAndCostNoMemory() throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let daemon = try Self.startBoard(broker, in: folder)
    let control = try ControlClient(path: folder.path(of: "control"))
    try broker.publish(Self.base + "/command", "add home +1")
    #expect(try Self.waitForValue(in: folder, "home", "1"))
    let before = try #require(Self.residentKilobytes(daemon.pid))
    // Twenty commands of 4 MiB each, each a valid request followed by spaces.
    let big = try folder.write(
      "big", "add home +100" + String(repeating: " ", count: 4 << 20))
    for _ in 0..<20 {
      let publisher = try DaemonProcess(
        executable: MosquittoBroker.publisher,
        arguments: [
          "-h", "127.0.0.1", "-p", String(broker.port), "-t", Self.base + "/command", "-q", "1",
          "-f", big,
        ])
      #expect(publisher.waitForExit() == 0)
    }
    try broker.publish(Self.base + "/command", "add home +1")
    #expect(try Self.waitForValue(in: folder, "home", "2"))
    let after = try #require(Self.residentKilobytes(daemon.pid))
    #expect(after - before < 2048, "resident memory grew from \(before) to \(after) kB")
    #expect(control.request("status")?.contains("mqtt=connected") == true)
  }

  @Test func aMirrorIsStaleUntilItReadsAGoodDocument() throws {
    let broker = try MosquittoBroker()
    try broker.publish(Self.base + "/status", "online", extra: ["-r"])
    try broker.publish(Self.base + "/state", "{\"fields\": not json", extra: ["-r"])
    let folder = try TemporaryFolder()
    let mirror = try MQTTTests.start(
      """
      \(ScoreboardSection.text(in: folder, logLevel: "info"))

      [display main]
      driver = terminal
      digits = 6

      \(Self.fields)

      [mqtt]
      broker = \(broker.url)
      topic = scoreboardd/far-end
      mirror = \(Self.base)
      """,
      in: folder)
    #expect(mirror.waitForStderr { $0.contains("mirror: \(Self.base)/state:") })
    let control = try ControlClient(path: folder.path(of: "control"))
    #expect(control.request("status")?.contains("mirror=stale") == true)
  }

  @Test func homeAssistantSeesARunningClockRun() throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let daemon = try MQTTTests.start(
      MQTTTests.configuration(in: folder, broker: broker.url), in: folder)
    #expect(daemon.waitForStderr { $0.contains("MQTT: connected") }, "\(daemon.stderrText)")
    let control = try ControlClient(path: folder.path(of: "control"))
    let states = try broker.subscribe(Self.base + "/state", count: 4, timeout: 10)
    // The retained document first: the subscription is in place.
    #expect(states.waitForLine { $0.contains("\"shown\":\"10:00\"") } != nil)
    #expect(control.request("start")?.hasPrefix("ok game") == true)
    // With no change, the clock's shown time comes again as it runs.
    #expect(states.waitForLine { $0.contains("\"shown\":\"9:5") } != nil)
  }

  @Test func homeAssistantOffRemovesTheDeviceAnnouncedBefore() throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let topic = "homeassistant/device/court-1/config"
    let daemon = try MQTTTests.start(
      MQTTTests.configuration(in: folder, broker: broker.url), in: folder)
    #expect(try MQTTTests.waitForRetained(broker, topic) { $0.contains("unique_id") } != nil)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    let off = try MQTTTests.start(
      MQTTTests.configuration(in: folder, broker: broker.url, extra: "home-assistant = no"),
      in: folder)
    #expect(
      try MQTTTests.waitForRetained(broker, topic) {
        $0.contains("\"cmps\"") && !$0.contains("unique_id")
      } != nil)
    #expect(off.waitForStderr { $0.contains("removing the device announced before") })
  }
}
