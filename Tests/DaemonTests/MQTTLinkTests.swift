import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import TestSupport
import Testing

@testable import ScoreboardDaemon

/// The daemon's link to the broker on its own, through a real Mosquitto broker: how it
/// takes the commands of a burst.
@Suite(
  .serialized,
  .enabled(
    if: MosquittoBroker.isAvailable, "needs mosquitto, mosquitto-clients and openssl (make deps)"))
struct MQTTLinkTests {
  static let topic = "scoreboardd/link"

  /// While something more urgent waits (a key, a clock's frame), a round takes one
  /// command of a burst and leaves the others queued for the next rounds: each of them
  /// asks again before it takes the next. Every command is carried out, in order.
  @Test func aBurstYieldsAfterEachCommandWhileSomethingMoreUrgentWaits() throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let configuration = try Configuration.parse(
      """
      [display main]
      driver = terminal
      digits = 4

      [field home]
      position = 1
      digits = 4
      max = 9999

      [mqtt]
      broker = \(broker.url)
      topic = \(Self.topic)
      """, path: "link.conf")
    let settings = try #require(configuration.mqtt)
    var carriedOut: [ControlRequest] = []
    let link = try MQTTLink(
      settings: settings, spec: configuration.scoreboard, logger: Logger(programName: "test"),
      clock: SteppedTimeSource()
    ) { request, _ in
      carriedOut.append(request)
      return (.ok("home \(carriedOut.count)"), false)
    }
    var urgentAsked = 0
    link.urgentWorkWaits = {
      urgentAsked += 1
      return true
    }
    let loop = PollLoop()
    var rounds: [Int] = []
    loop.watch(link.eventDescriptor, for: .readable) { _ in
      let before = carriedOut.count
      link.handleEvents { (Scoreboard(spec: configuration.scoreboard), .seconds(1)) }
      rounds.append(carriedOut.count - before)
    }
    try link.start()
    defer { link.close() }
    func run(until condition: () -> Bool) throws -> Bool {
      let deadline = MonotonicClock.now() + 30_000_000_000
      while !condition() {
        guard MonotonicClock.now() < deadline else { return false }
        try loop.runOnce(timeout: .milliseconds(10))
      }
      return true
    }
    #expect(try run { link.isConnected })

    let count = 50
    let commands = try folder.write("commands", String(repeating: "add home +1\n", count: count))
    try broker.publishLines(Self.topic + "/command", fromFile: commands)
    #expect(try run { carriedOut.count == count })
    #expect(carriedOut == Array(repeating: .add(field: "home", amount: 1), count: count))
    #expect(rounds.allSatisfy { $0 <= 1 }, "\(rounds)")
    #expect(urgentAsked >= count - 1)
  }
}
