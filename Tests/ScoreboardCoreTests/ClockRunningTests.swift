import ScoreboardCore
import TestExpectations
import TestSupport
import Testing

/// A running clock: started and stopped at the instants of the keys, shown rounded the
/// way it counts, waking the caller exactly when its text changes, and stopping at zero.
@Suite struct ClockRunningTests {
  /// A game clock of 12:00 alone (no shot clock, no horn), loaded with `time`.
  static func gameClock(
    _ time: Duration, tenthsBelow: Duration? = nil, direction: ClockFormat.Direction = .down
  ) -> Scoreboard {
    ClockFixtures.board(
      ClockFixtures.spec(
        [
          ClockFixtures.game(
            length: .seconds(1200), direction: direction, tenthsBelow: tenthsBelow),
          ClockFixtures.home,
        ], horns: []), game: time)
  }

  @Test func startAndStopAtTheInstantsOfTheKeys() throws {
    var board = Self.gameClock(.seconds(720))
    let start = Instant(nanoseconds: 1_000_000_007)
    let stop = Instant(nanoseconds: 5_123_456_789)
    let events = try board.run(.start(clock: nil), at: start)
    #expect(
      events == [
        .clockStarted(field: "game", time: .seconds(720))
      ])
    #expect(board.clock("game") == ClockState(time: .seconds(720), startedAt: start))
    let remaining = Duration.nanoseconds(720_000_000_000 - (5_123_456_789 - 1_000_000_007))
    let events2 = try board.run(.stop(clock: "game"), at: stop)
    #expect(
      events2 == [
        .clockStopped(field: "game", time: remaining)
      ])
    #expect(board.clock("game") == ClockState(time: remaining))
    #expect(board.time("game", at: instant(3_600)) == remaining, "a stopped clock stays")
    #expect(board.text(of: "game") == "11:55.9")
  }

  @Test func startStopTogglesAndStartAndStopAreIdempotent() throws {
    var board = Self.gameClock(.seconds(60))
    let events = try board.run(.startStop(clock: nil), at: instant(1))
    #expect(
      events == [
        .clockStarted(field: "game", time: .seconds(60))
      ])
    let events2 = try board.run(.start(clock: "game"), at: instant(2))
    #expect(events2.isEmpty, "already running")
    let events3 = try board.run(.startStop(clock: "game"), at: instant(3))
    #expect(
      events3 == [
        .clockStopped(field: "game", time: .seconds(58))
      ])
    let events4 = try board.run(.stop(clock: nil), at: instant(4))
    #expect(events4.isEmpty, "already stopped")
  }

  @Test(arguments: [
    (Action.start(clock: "home"), "'home' is not a clock (clocks: game)"),
    (.stop(clock: "gmae"), "'gmae' is not a clock (clocks: game)"),
    (.adjust(clock: "home", amount: .seconds(1)), "'home' is not a clock (clocks: game)"),
    (.resetClock(clock: "home", time: nil), "'home' is not a clock (clocks: game)"),
    (
      .set(field: "game", value: "12:75"),
      "'12:75' is not a value of game: expected a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9) up to 20:00"
    ),
    (
      .set(field: "game", value: "20:00.1"),
      "'20:00.1' is not a value of game: expected a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9) up to 20:00"
    ),
    (.horn(nil), "no horn is configured"),
  ])
  func requestsThatNameNoClockOrNoTimeThrow(action: Action, message: String) {
    var board = Self.gameClock(.seconds(60))
    let error = expectError(ScoreboardError.self) { try board.perform(action, at: instant(1)) }
    #expect(error?.description == message)
    #expect(board.time("game", at: instant(1)) == .seconds(60))
  }

  @Test func aBoardWithoutAClockHasNoneToStart() {
    var board = Scoreboard(spec: Fixtures.spec())
    let error = expectError(ScoreboardError.self) {
      try board.perform(.start(clock: nil), at: instant(1))
    }
    #expect(error == .notAClock(nil, clocks: []))
    #expect(error?.description == "no clock is configured")
  }

  @Test func tenthsShowFromExactlyATenthUnderAMinute() throws {
    var board = Self.gameClock(.seconds(60))
    try board.run(.start(clock: nil), at: .zero)
    #expect(board.shows("game", at: .zero) == " 1:00")
    #expect(board.shows("game", at: Instant(nanoseconds: 1)) == " 1:00", "rounded up")
    #expect(board.shows("game", at: Instant(nanoseconds: 99_999_999)) == " 1:00")
    #expect(board.shows("game", at: .milliseconds(100)) == " 59.9", "at 60.0 - 0.1 s")
    #expect(board.shows("game", at: Instant(nanoseconds: 100_000_001)) == " 59.9")
    #expect(board.shows("game", at: .milliseconds(200)) == " 59.8")
    #expect(board.shows("game", at: .milliseconds(50_500)) == "  9.5")
    let cells = Renderer.fieldRendering(of: board, field: 0, at: .milliseconds(100))
    #expect(
      cells.cells == [
        .blank, SegmentFont.digit(5), SegmentFont.digit(9).union(.dp), SegmentFont.digit(9),
      ])
    #expect(cells.colon == nil, "no colon with tenths")
  }

  @Test func aColonShowsAboveAMinute() throws {
    let board = Self.gameClock(.seconds(720))
    let shown = Renderer.fieldRendering(of: board, field: 0, at: .zero)
    #expect(
      shown.cells == [
        SegmentFont.digit(1), SegmentFont.digit(2).union(.dp), SegmentFont.digit(0),
        SegmentFont.digit(0),
      ])
    #expect(shown.colon == 1)
    let frame = Renderer.frame(of: board, display: board.spec.displays[0], at: .zero)
    #expect(frame.colons == [1])
    #expect(frame.fieldTexts["game"] == "12:00")
    #expect(frame.text == "12.00   0")
  }

  @Test func countingDownShowsTheTimeRoundedUp() throws {
    var board = Self.gameClock(.seconds(2), tenthsBelow: .zero)
    try board.run(.start(clock: nil), at: instant(100))
    #expect(board.shows("game", at: instant(100)) == " 0:02")
    #expect(board.shows("game", at: instant(100, 1)) == " 0:02")
    #expect(board.shows("game", at: instant(101)) == " 0:01")
    #expect(
      board.shows("game", at: instant(101, 999_999_999)) == " 0:01", "until the last second has run"
    )
    #expect(board.shows("game", at: instant(102)) == " 0:00")
    var tenths = Self.gameClock(.seconds(2))
    try tenths.run(.start(clock: nil), at: instant(100))
    #expect(tenths.shows("game", at: instant(101, 900_000_001)) == "  0.1")
    #expect(tenths.shows("game", at: instant(101, 999_999_999)) == "  0.1")
    #expect(tenths.shows("game", at: instant(102)) == "  0.0", "0.0 only at zero")
  }

  @Test func deadlinesComeOnceASecondThenEveryTenth() throws {
    var board = Self.gameClock(.seconds(62))
    let start = Instant(nanoseconds: 7_123_456_789)
    try board.run(.start(clock: nil), at: start)
    var deadlines: [Instant] = []
    var now = start
    while let next = board.nextDeadline(after: now) {
      deadlines.append(next)
      now = next
      #expect(deadlines.count < 1_000)
      if deadlines.count >= 1_000 { break }
    }
    let expected =
      [start + .seconds(1), start + .seconds(2)]
      + (21...620).map { start + .milliseconds(Int64($0) * 100) }
    #expect(deadlines == expected)
    #expect(board.advance(to: now) == [.clockRanOut(field: "game")])
    #expect(board.nextDeadline(after: now) == nil)
  }

  /// The instants from `start` at which what the game clock shows changes, read from the
  /// cells nanosecond by nanosecond around each deadline and sampled in between.
  @Test(arguments: [Duration.seconds(65), .milliseconds(61_234), .nanoseconds(3_999_999_999)])
  func eachDeadlineIsExactlyWhereTheTextChanges(time: Duration) throws {
    var board = Self.gameClock(time)
    let start = Instant(nanoseconds: 987_654_321)
    try board.run(.start(clock: nil), at: start)
    var previous = start
    var changes = 0
    while let deadline = board.nextDeadline(after: previous), changes < 1_000 {
      changes += 1
      let before = board.shows("game", at: deadline - .nanoseconds(1))
      #expect(board.shows("game", at: deadline) != before, "at \(deadline.nanoseconds)")
      for step in 0..<7 {
        let sample = previous + (deadline - previous) * step / 7
        #expect(board.shows("game", at: sample) == board.shows("game", at: previous))
      }
      previous = deadline
    }
    #expect(board.shows("game", at: previous) == "  0.0")
    #expect(previous == start + time)
  }

  @Test func aStoppedBoardHasNoDeadline() throws {
    var board = Self.gameClock(.seconds(600))
    #expect(board.nextDeadline(after: instant(0)) == nil)
    try board.run(.start(clock: nil), at: instant(1))
    #expect(board.nextDeadline(after: instant(1)) == instant(2))
    #expect(board.nextDeadline(after: instant(1, 300_000_000)) == instant(2))
    try board.run(.stop(clock: nil), at: instant(1, 500_000_000))
    #expect(board.nextDeadline(after: instant(1, 500_000_000)) == nil)
  }

  @Test func reachingZeroStopsAtExactlyZero() throws {
    var board = Self.gameClock(.milliseconds(5_300))
    try board.run(.start(clock: nil), at: instant(10))
    #expect(board.time("game", at: instant(99)) == .zero, "never below zero")
    #expect(board.shows("game", at: instant(99)) == "  0.0")
    let events = board.advance(to: instant(20))
    #expect(events == [.clockRanOut(field: "game")])
    #expect(board.clock("game") == ClockState(time: .zero))
    #expect(board.nextDeadline(after: instant(20)) == nil)
    #expect(board.advance(to: instant(30)).isEmpty, "it ran out once")
    let error = expectError(ScoreboardError.self) {
      try board.perform(.start(clock: nil), at: instant(31))
    }
    #expect(error == .clockAtEnd("game"))
    #expect(error?.description == "clock game has run out; set or reset it first")
    #expect(board.refusal?.field == 0, "it flashes")
  }

  @Test func aKeyAfterZeroSeesTheClockStoppedAtZeroFirst() throws {
    var board = Self.gameClock(.seconds(1))
    try board.run(.start(clock: nil), at: instant(10))
    let events = try board.run(.stop(clock: nil), at: instant(12))
    #expect(events == [.clockRanOut(field: "game")])
    #expect(board.clock("game") == ClockState(time: .zero))
  }

  @Test func countingUpStopsAtTheLength() throws {
    var board = Self.gameClock(.zero, tenthsBelow: .zero, direction: .up)
    #expect(board.shows("game", at: instant(0)) == " 0:00")
    try board.run(.start(clock: nil), at: instant(5))
    #expect(board.shows("game", at: instant(5, 999_999_999)) == " 0:00", "rounded down")
    #expect(board.shows("game", at: instant(6)) == " 0:01")
    #expect(board.nextDeadline(after: instant(6, 500)) == instant(7))
    #expect(board.time("game", at: instant(5_000)) == .seconds(1200), "never past the length")
    #expect(board.nextDeadline(after: instant(1_204, 1)) == instant(1_205))
    #expect(board.advance(to: instant(1_300)) == [.clockRanOut(field: "game")])
    #expect(board.clock("game") == ClockState(time: .seconds(1200)))
    #expect(board.shows("game", at: instant(1_300)) == "20:00")
    let error = expectError(ScoreboardError.self) {
      try board.perform(.start(clock: nil), at: instant(1_301))
    }
    #expect(error == .clockAtEnd("game"))
    try board.run(.resetClock(clock: nil, time: nil), at: instant(1_302))
    #expect(board.time("game", at: instant(1_302)) == .zero, "reset to zero")
  }

  /// An hour of play: 3,600 runs of the clock between irregular instants, down to the
  /// last half minute. The clock must hold exactly the time it was set to minus the time
  /// it ran, and show that time rounded up.
  @Test func anHourOfStartsAndStopsDoesNotDrift() throws {
    var random = SeededRandom.forTest("anHourOfStartsAndStopsDoesNotDrift")
    let runs = (0..<3_600).map { _ in Int64.random(in: 1...1_500_000_000, using: &random) }
    let pauses = (0..<3_600).map { _ in Int64.random(in: 1...3_000_000_000, using: &random) }
    let set = runs.reduce(0, +) + 25_000_000_000
    var board = ClockFixtures.board(
      ClockFixtures.spec(
        [ClockFixtures.game(length: .seconds(5_999)), ClockFixtures.home], horns: []),
      game: .nanoseconds(set))
    var now = Instant(nanoseconds: Int64.random(in: 1...1_000_000_000_000, using: &random))
    var ran: Int64 = 0
    var shownTenths = 0
    for (cycle, run) in runs.enumerated() {
      try board.run(.start(clock: nil), at: now)
      for _ in 0..<3 {
        let offset = Int64.random(in: 0...run, using: &random)
        let remaining = set - ran - offset
        let text = board.shows("game", at: now + .nanoseconds(offset))
        if text != Self.countdownText(remaining) {
          Issue.record("cycle \(cycle): \(remaining) ns shows \(text)")
        }
        shownTenths += text.contains(".") ? 1 : 0
      }
      now = now + .nanoseconds(run)
      try board.run(.stop(clock: nil), at: now)
      ran += run
      if board.time("game", at: now) != .nanoseconds(set - ran) {
        Issue.record("cycle \(cycle): \(board.time("game", at: now)) after \(ran) ns")
      }
      now = now + .nanoseconds(pauses[cycle])
    }
    #expect(board.clock("game") == ClockState(time: .seconds(25)))
    #expect(ran > 2_000_000_000_000, "about 45 minutes ran")
    #expect(shownTenths > 50, "the last minute was shown too")
  }

  /// What a 4-cell game clock counting down shows with `nanoseconds` on it: `M:SS` rounded
  /// up to the second from a minute on, `S.t` rounded up to the tenth below.
  static func countdownText(_ nanoseconds: Int64) -> String {
    let tenths = (nanoseconds + 99_999_999) / 100_000_000
    guard tenths >= 600 else {
      return String(repeating: " ", count: tenths >= 100 ? 1 : 2) + "\(tenths / 10).\(tenths % 10)"
    }
    let seconds = (nanoseconds + 999_999_999) / 1_000_000_000
    let text = "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    return text.count < 5 ? " " + text : text
  }
}
