import LinuxIO
import ScoreboardCore
import TestSupport
import Testing

/// A master board and its mirror, both real daemons in the test's process in virtual
/// time, through a real Mosquitto broker: the mirror follows the master's values, runs
/// the master's clock from its published start to the exact tenth, and goes stale when
/// the master goes away.
@Suite(
  .serialized,
  .enabled(
    if: MosquittoBroker.isAvailable, "needs mosquitto, mosquitto-clients and openssl (make deps)"))
struct MirrorInVirtualTimeTests {
  static let topic = "scoreboardd/court-1"

  /// Runs rounds of both daemons, each waiting up to 5 ms of real time for the broker,
  /// until `condition` holds; false after 10 s of real time.
  static func run(_ boards: DaemonHarness..., until condition: () throws -> Bool) throws -> Bool {
    let deadline = MonotonicClock.now() + 10_000_000_000
    while try !condition() {
      guard MonotonicClock.now() < deadline else { return false }
      for board in boards {
        try board.daemon.runRound(waitingAtMost: .milliseconds(5))
      }
    }
    return true
  }

  /// Moves virtual time on by `duration` on every board, to the same instant.
  static func advance(_ boards: DaemonHarness..., by duration: Duration) throws {
    let instant = (boards.map { $0.clock.now() }.max() ?? .seconds(0)) + duration
    for board in boards {
      try board.advance(to: instant)
    }
  }

  @Test func theMirrorFollowsTheMastersValuesAndClockAndGoesStaleWithoutIt() throws {
    let broker = try MosquittoBroker()
    var master: DaemonHarness? = try DaemonHarness(
      extra: DaemonInVirtualTimeTests.longClock + """

        [mqtt]
        broker = \(broker.url)
        topic = \(Self.topic)
        """)
    let mirror = try DaemonHarness(
      extra: DaemonInVirtualTimeTests.longClock + """

        [mqtt]
        broker = \(broker.url)
        topic = \(Self.topic)-end
        mirror = \(Self.topic)
        when-stale = dashes
        """)
    let mirrorClient = try mirror.controlClient()
    let masterClient = try #require(try master?.controlClient())
    func mirrorStatus() throws -> String {
      try mirror.request("status", from: mirrorClient) ?? ""
    }
    #expect(try Self.run(master!, mirror) { try mirrorStatus().hasSuffix("mirror=live") })

    // A change on the master reaches the mirror's display (after its frame's wire time).
    // Virtual time stands still while the boards wait for the broker: it is moved on
    // between the master's changes, as a person's keys would be, so that each finds the
    // credit of the master's publications (`MQTTLink.publishCredit`) full again; twice
    // 50 ms is a whole tenth, which the instants below count on.
    try Self.advance(master!, mirror, by: .milliseconds(50))
    #expect(try master?.request("set home 12", from: masterClient) == "ok home 12")
    #expect(
      try Self.run(master!, mirror) {
        try mirror.request("get home", from: mirrorClient) == "ok 12"
      })
    try mirror.advance(by: .milliseconds(10))
    #expect(mirror.shows == "12 0")

    // The master starts its clock; virtual time moves on both boards, whose clocks and
    // calendars agree: the mirror runs the clock from the start the master published.
    // The document says it to the millisecond, and the mirror shows the master's tenth.
    try Self.advance(master!, mirror, by: .milliseconds(50))
    #expect(try master?.request("start game", from: masterClient) == "ok game 10:00.0 running")
    #expect(
      try Self.run(master!, mirror) { try mirrorStatus().contains("clocks=game:running") },
      "\((try? mirrorStatus()) ?? "")")
    for tenths in [5, 25, 75, 5_985] {
      let instant = Instant.seconds(1_000) + .milliseconds(Int64(tenths) * 100 + 50)
      try master?.advance(to: instant)
      try mirror.advance(to: instant)
      let shown = try master?.request("get game", from: masterClient)
      #expect(try mirror.request("get game", from: mirrorClient) == shown, "at \(instant)")
    }
    // Started at 1,000.1 s, the 10:00 clock has 1.55 s left at 1,598.55 s: 1.6 shown.
    let last = try mirror.request("get game", from: mirrorClient)
    #expect(last == "ok 1.6", "\(last ?? "-")")

    // The master stops: the mirror says it is stale and shows dashes.
    master = nil
    #expect(try Self.run(mirror) { try mirrorStatus().hasSuffix("mirror=stale") })
    try mirror.advance(by: .milliseconds(10))
    #expect(mirror.shows == "----")
  }

  /// A burst of changes costs the broker three publications: the first two changes at
  /// once, the rest together once the credit of 20 ms a publication allows (20 ms after
  /// the second); the broker ends with the latest state. What waits goes out with the
  /// first round after the credit allows it, and the loop's deadline for it is 10 ms
  /// later, so that a burst's next key, not a wakeup of its own, carries it.
  @Test func aBurstOfChangesIsPublishedAtItsStartAndItsLatest() throws {
    let broker = try MosquittoBroker()
    let master = try DaemonHarness(
      extra: """

        [mqtt]
        broker = \(broker.url)
        topic = \(Self.topic)
        """)
    let client = try master.controlClient()
    let first = try broker.subscribe(Self.topic + "/state", count: 1, timeout: 10)
    #expect(try Self.run(master) { first.waitForLine(timeout: 0.001) { _ in true } != nil })
    try master.advance(by: .milliseconds(100))
    let subscriber = try broker.subscribe(Self.topic + "/state", count: 4, timeout: 10)
    let start = master.clock.now()
    for _ in 1...5 {
      #expect(try master.request("add home +1", from: client)?.hasPrefix("ok") == true)
      try master.advance(by: .milliseconds(2))
    }
    // The first two changes went at once (at the start and 2 ms later, leaving 2 ms of
    // credit); the three others wait for the credit, due 18 ms after the second.
    #expect(master.daemon.nextDeadline == start + .milliseconds(2 + 18 + 10))
    // A round 1 ms after the credit allows it (a key's, say) publishes them.
    try master.advance(to: start + .milliseconds(2 + 18 + 1))
    var homes: [Int] = []
    _ = subscriber.waitForLine(timeout: 10) { line in
      if let range = line.firstRange(of: "\"home\":{\"shown\":") {
        let rest = line[range.upperBound...].drop { $0 != "," }
        if let value = rest.firstRange(of: "\"value\":") {
          homes.append(Int(rest[value.upperBound...].prefix { $0.isNumber }) ?? -1)
        }
      }
      return homes.count == 4
    }
    // The retained state of before the burst, its first two changes, then its latest.
    #expect(homes == [0, 1, 2, 5])
  }
}
