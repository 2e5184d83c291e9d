import ScoreboardCore
import TestExpectations
import Testing

/// Changing a clock's time by hand: adjusting a stopped clock, undoing a change (also of
/// a running clock), and the two-press reset of the whole board.
@Suite struct ClockChangeTests {
  /// The basketball board with the game clock at 10:00.
  static func board() -> Scoreboard {
    ClockFixtures.board(game: .seconds(600))
  }

  @Test(arguments: [
    (Action.adjust(clock: "game", amount: .seconds(1)), Duration.seconds(601), "10:01.0"),
    (.adjust(clock: "game", amount: .seconds(-1)), .seconds(599), "9:59.0"),
    (.adjust(clock: "game", amount: .milliseconds(100)), .milliseconds(600_100), "10:00.1"),
    (.adjust(clock: "game", amount: .milliseconds(-100)), .milliseconds(599_900), "9:59.9"),
    (.adjust(clock: nil, amount: .milliseconds(-100)), .milliseconds(599_900), "9:59.9"),
    (.add(field: "game", amount: 1), .seconds(601), "10:01.0"),
    (.add(field: "game", amount: -30), .seconds(570), "9:30.0"),
    (.adjust(clock: "game", amount: .seconds(500)), .seconds(720), "12:00.0"),
    (.adjust(clock: "game", amount: .seconds(-700)), .zero, "0.0"),
  ])
  func adjustingAStoppedClock(action: Action, time: Duration, text: String) throws {
    var board = Self.board()
    let events = try board.run(action, at: instant(1))
    #expect(events == [.clockChanged(field: "game", from: .seconds(600), to: time)])
    #expect(board.text(of: "game") == text)
    #expect(board.clock("game")?.isRunning == false)
    try board.run(.undo, at: instant(2))
    #expect(board.time("game", at: instant(2)) == .seconds(600))
  }

  @Test func adjustingTheFocusedShotClock() throws {
    var board = Self.board()
    try board.run(.select(field: "shot"), .cancel, at: instant(1))
    #expect(board.focus == 1)
    try board.run(
      .adjust(clock: nil, amount: .seconds(-10)), .add(field: nil, amount: -1), at: instant(2))
    #expect(board.time("shot", at: instant(2)) == .seconds(13))
    #expect(board.time("game", at: instant(2)) == .seconds(600))
  }

  @Test func adjustingWhileTypingDropsTheEntry() throws {
    var board = Self.board()
    let events = try board.run(
      .select(field: "game"), .digit(3), .adjust(clock: "game", amount: .seconds(2)), at: instant(1)
    )
    #expect(
      events.suffix(2) == [
        .editingEnded(field: "game", committed: false),
        .clockChanged(field: "game", from: .seconds(600), to: .seconds(602)),
      ])
  }

  @Test(arguments: [
    Action.adjust(clock: "game", amount: .seconds(1)),
    .adjust(clock: nil, amount: .milliseconds(-100)),
    .add(field: "game", amount: 1),
  ])
  func adjustingARunningClockIsRefused(action: Action) throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(1))
    let error = expectError(ScoreboardError.self) { try board.perform(action, at: instant(2)) }
    #expect(error == .clockRunning("game"))
    #expect(error?.description == "clock game is running; stop it first")
    #expect(board.refusal?.field == 0, "the clock flashes")
    #expect(board.time("game", at: instant(3)) == .seconds(598))
    #expect(board.undoHistory.isEmpty)
  }

  @Test func undoRevertsSettingAdjustingAndResettingAClock() throws {
    var board = Self.board()
    try board.run(.set(field: "game", value: "5:00"), at: instant(1))
    try board.run(.adjust(clock: "game", amount: .milliseconds(-100)), at: instant(2))
    try board.run(.resetClock(clock: "shot", time: .seconds(14)), at: instant(3))
    try board.run(.resetClock(clock: "game", time: nil), at: instant(4))
    #expect(board.time("game", at: instant(4)) == .seconds(720))
    let events = try board.run(.undo, at: instant(5))
    #expect(
      events == [
        .clockChanged(field: "game", from: .seconds(720), to: .milliseconds(299_900))
      ])
    let events2 = try board.run(.undo, at: instant(6))
    #expect(
      events2 == [
        .clockChanged(field: "shot", from: .seconds(14), to: .seconds(24))
      ])
    try board.run(.undo, at: instant(7))
    #expect(board.time("game", at: instant(7)) == .seconds(300))
    try board.run(.undo, at: instant(8))
    #expect(board.time("game", at: instant(8)) == .seconds(600))
    #expect(board.undoHistory.isEmpty)
  }

  @Test func undoMovesARunningClockBackByTheChangeAndItRunsOn() throws {
    var board = Self.board()
    try board.run(.set(field: "game", value: "5:00"), at: instant(1))
    try board.run(.start(clock: nil), at: instant(2))
    let undo = Instant(nanoseconds: 12_345_678_901)
    let events = try board.run(.undo, at: undo)
    let ran = Duration.nanoseconds(12_345_678_901 - 2_000_000_000)
    #expect(
      events == [.clockChanged(field: "game", from: .seconds(300) - ran, to: .seconds(600) - ran)])
    #expect(board.clock("game") == ClockState(time: .seconds(600) - ran, startedAt: undo))
    #expect(board.time("game", at: undo + .seconds(1)) == .seconds(599) - ran)
  }

  @Test func undoOfAResetClockOnARunningShotClockKeepsItRunning() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(0))
    try board.run(.resetClock(clock: "shot", time: nil), at: instant(10))
    try board.run(.undo, at: instant(12))
    // 24 at the reset, 22 two seconds later, 10 s less for the undo.
    #expect(board.clock("shot") == ClockState(time: .seconds(12), startedAt: instant(12)))
  }

  @Test func undoAfterTheClockRanOutMovesItUpFromZero() throws {
    var board = Self.board()
    try board.run(.set(field: "game", value: "3"), at: instant(1))
    try board.run(.start(clock: nil), at: instant(2))
    _ = board.advance(to: instant(10))
    #expect(board.clock("game") == ClockState(time: .zero))
    try board.run(.undo, at: instant(11))
    #expect(board.time("game", at: instant(11)) == .seconds(597), "0 + (600 - 3)")
  }

  @Test func undoNeverTakesAClockBelowZero() throws {
    var board = Self.board()
    try board.run(.set(field: "game", value: "12:00"), at: instant(1))
    try board.run(.start(clock: nil), at: instant(2))
    _ = board.advance(to: instant(800))
    let events = try board.run(.undo, at: instant(801))
    #expect(events.isEmpty, "0 - 2:00 is zero, where it is")
    #expect(board.clock("game") == ClockState(time: .zero))
    #expect(board.undoHistory.isEmpty)
  }

  @Test func theTwoPressResetStopsAndResetsTheClocksWithTheScores() throws {
    var board = Self.board()
    try board.run(.set(field: "home", value: "12"), at: instant(0))
    try board.run(.start(clock: nil), at: instant(1))
    let events2 = try board.run(.reset, at: instant(5))
    #expect(events2 == [.resetArmed])
    #expect(board.clock("game")?.isRunning == true, "one press changes nothing")
    let events = try board.run(.reset, at: instant(6))
    #expect(
      events == [
        .valueChanged(field: "home", from: 12, to: 0),
        .clockStopped(field: "game", time: .seconds(595)),
        .clockChanged(field: "game", from: .seconds(595), to: .seconds(720)),
        .clockStopped(field: "shot", time: .seconds(19)),
        .clockChanged(field: "shot", from: .seconds(19), to: .seconds(24)),
      ])
    #expect(board.clock("game") == ClockState(time: .seconds(720)))
    #expect(board.clock("shot") == ClockState(time: .seconds(24)))
    #expect(board.nextDeadline(after: instant(6)) == nil)
    let events3 = try board.run(.undo, at: instant(60))
    #expect(
      events3
        == [
          .clockChanged(field: "shot", from: .seconds(24), to: .seconds(19)),
          .clockChanged(field: "game", from: .seconds(720), to: .seconds(595)),
          .valueChanged(field: "home", from: 0, to: 12),
        ])
    #expect(board.clock("game") == ClockState(time: .seconds(595)), "one undo reverts it all")
    #expect(board.clock("shot") == ClockState(time: .seconds(19)))
    #expect(board.text(of: "home") == "12")
  }

  @Test func resetAllOfTheControlSocketResetsTheClocksAtOnce() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(1))
    let events = board.resetAll(at: instant(3))
    #expect(events.contains(.clockChanged(field: "game", from: .seconds(598), to: .seconds(720))))
    #expect(board.clock("game") == ClockState(time: .seconds(720)))
  }

  @Test func setOnARunningClockKeepsItRunningFromTheNewTime() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(1))
    let events = try board.run(.set(field: "game", value: "1:00"), at: instant(3))
    #expect(events == [.clockChanged(field: "game", from: .seconds(598), to: .seconds(60))])
    #expect(board.clock("game") == ClockState(time: .seconds(60), startedAt: instant(3)))
    #expect(board.clock("shot") == ClockState(time: .seconds(24), startedAt: instant(1)))
  }
}
