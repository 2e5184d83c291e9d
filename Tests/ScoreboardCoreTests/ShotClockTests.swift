import ScoreboardCore
import TestExpectations
import Testing

/// A shot clock following the game clock: it starts and stops with it, goes dark when the
/// game clock has less time on it, and is reset to 24 or 14.
@Suite struct ShotClockTests {
  /// The basketball board with the game clock at `game`.
  static func board(game: Duration = .seconds(600), blanks: Bool = true) -> Scoreboard {
    ClockFixtures.board(
      ClockFixtures.spec([
        ClockFixtures.game(), ClockFixtures.shot(blanks: blanks), ClockFixtures.home,
      ]),
      game: game)
  }

  @Test func itStartsAndStopsWithTheGameClockAtTheSameInstants() throws {
    var board = Self.board()
    let start = Instant(nanoseconds: 3_000_000_001)
    let events = try board.run(.startStop(clock: nil), at: start)
    #expect(
      events
        == [
          .clockStarted(field: "game", time: .seconds(600)),
          .clockStarted(field: "shot", time: .seconds(24)),
        ])
    #expect(board.clock("shot")?.startedAt == start)
    let stop = Instant(nanoseconds: 9_876_543_210)
    let ran = Duration.nanoseconds(9_876_543_210 - 3_000_000_001)
    let events2 = try board.run(.startStop(clock: nil), at: stop)
    #expect(
      events2
        == [
          .clockStopped(field: "game", time: .seconds(600) - ran),
          .clockStopped(field: "shot", time: .seconds(24) - ran),
        ])
    #expect(board.shows("game", at: stop) == " 9:54")
    #expect(board.shows("shot", at: stop) == "18")
  }

  @Test func startingOrStoppingTheShotClockAloneLeavesTheGameClock() throws {
    var board = Self.board()
    let events = try board.run(.start(clock: "shot"), at: instant(1))
    #expect(
      events == [
        .clockStarted(field: "shot", time: .seconds(24))
      ])
    #expect(board.clock("game")?.isRunning == false)
    try board.run(.start(clock: "game"), at: instant(2))
    #expect(board.clock("shot")?.startedAt == instant(1), "already running, it runs on")
    let events2 = try board.run(.stop(clock: "shot"), at: instant(3))
    #expect(
      events2 == [
        .clockStopped(field: "shot", time: .seconds(22))
      ])
    #expect(board.clock("game")?.isRunning == true)
  }

  @Test func theShotClockRunningOutSoundsItsHornAndTheGameRunsOn() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(0))
    #expect(board.nextDeadline(after: instant(23, 950_000_000)) == instant(24))
    #expect(
      board.advance(to: instant(24)) == [
        .clockRanOut(field: "shot"), .hornChanged(horn: "buzzer", sounding: true),
      ])
    #expect(board.shows("shot", at: instant(24)) == "0.0")
    #expect(board.clock("game")?.isRunning == true)
    #expect(board.horn("main", at: instant(24)) == false)
    #expect(board.advance(to: instant(25)) == [.hornChanged(horn: "buzzer", sounding: false)])
    // Stopped and started again, the game clock leaves the shot clock at zero, unflashed.
    try board.run(.stop(clock: nil), at: instant(30))
    let events = try board.run(.start(clock: nil), at: instant(31))
    #expect(events == [.clockStarted(field: "game", time: .seconds(570))])
    #expect(board.refusal == nil)
    #expect(board.shows("shot", at: instant(31)) == "0.0")
  }

  @Test func theGameClockRunningOutStopsTheShotClockThere() throws {
    var board = Self.board(game: .seconds(30))
    try board.run(.start(clock: nil), at: instant(0))
    try board.run(.resetClock(clock: "shot", time: nil), at: instant(10))
    #expect(board.shows("shot", at: instant(10)) == "  ", "more than the game clock has: dark")
    #expect(
      board.advance(to: instant(30))
        == [
          .clockRanOut(field: "game"), .clockStopped(field: "shot", time: .seconds(4)),
          .hornChanged(horn: "main", sounding: true),
        ])
    #expect(board.horn("buzzer", at: instant(30)) == false, "the shot clock did not run out")
    #expect(board.clock("shot") == ClockState(time: .seconds(4)))
  }

  @Test func itIsDarkWhileTheGameClockHasLessTime() throws {
    var board = Self.board(game: .seconds(20))
    #expect(board.shows("shot", at: instant(0)) == "  ")
    #expect(Renderer.fieldRendering(of: board, field: 1, at: instant(0)).cells == [.blank, .blank])
    try board.run(.set(field: "game", value: "24"), at: instant(1))
    #expect(board.shows("shot", at: instant(1)) == "24", "as much time is not less")
    try board.run(.adjust(clock: "game", amount: .milliseconds(-100)), at: instant(2))
    #expect(board.shows("shot", at: instant(2)) == "  ")
    var lit = Self.board(game: .seconds(20), blanks: false)
    #expect(lit.shows("shot", at: instant(0)) == "24", "unless told otherwise")
    try lit.run(.start(clock: nil), at: instant(1))
    #expect(lit.shows("shot", at: instant(2)) == "23")
  }

  @Test func aStoppedShotClockGoesDarkExactlyWhenTheRunningGameClockPassesIt() throws {
    var board = Self.board(game: .seconds(30))
    try board.run(.start(clock: nil), at: instant(0))
    try board.run(.stop(clock: "shot"), at: instant(2))
    #expect(board.clock("shot") == ClockState(time: .seconds(22)))
    // The game clock reaches 22.0 at 8 s; the shot clock goes dark just after.
    #expect(board.nextDeadline(after: instant(7, 950_000_000)) == instant(8))
    #expect(board.nextDeadline(after: instant(8)) == instant(8, 1))
    #expect(board.shows("shot", at: instant(8)) == "22")
    #expect(board.shows("shot", at: instant(8, 1)) == "  ")
    #expect(board.nextDeadline(after: instant(8, 1)) == instant(8, 100_000_000), "the game's tenth")
  }

  @Test func resetLoadsTheFirstResetValueAndResetClockTheOneNamed() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(0))
    let events = try board.run(
      .resetClock(clock: "shot", time: .seconds(14)), at: instant(5, 250_000_000))
    #expect(events == [.clockChanged(field: "shot", from: .milliseconds(18_750), to: .seconds(14))])
    #expect(
      board.clock("shot") == ClockState(time: .seconds(14), startedAt: instant(5, 250_000_000)),
      "it runs on")
    #expect(board.time("shot", at: instant(6, 250_000_000)) == .seconds(13))
    try board.run(.resetClock(clock: "shot", time: nil), at: instant(7))
    #expect(board.clock("shot") == ClockState(time: .seconds(24), startedAt: instant(7)))
    try board.run(.stop(clock: nil), at: instant(8))
    try board.run(.resetClock(clock: "shot", time: .seconds(14)), at: instant(9))
    #expect(board.clock("shot") == ClockState(time: .seconds(14)), "it stays stopped")
    try board.run(.resetClock(clock: "shot", time: nil), at: instant(10))
    #expect(board.clock("shot") == ClockState(time: .seconds(24)))
    #expect(board.clock("game") == ClockState(time: .seconds(592)))
  }

  @Test func aStoppedShotClockResetWhileTheGameClockRunsStartsWithIt() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(0))
    _ = board.advance(to: instant(30))
    #expect(board.clock("shot") == ClockState(time: .zero))
    let events = try board.run(.resetClock(clock: "shot", time: nil), at: instant(31))
    #expect(
      events == [
        .clockChanged(field: "shot", from: .zero, to: .seconds(24)),
        .clockStarted(field: "shot", time: .seconds(24)),
      ])
    #expect(board.clock("shot") == ClockState(time: .seconds(24), startedAt: instant(31)))
  }

  @Test func resetClockRefusesATimeLongerThanTheClock() {
    var board = Self.board()
    let error = expectError(ScoreboardError.self) {
      try board.perform(.resetClock(clock: "shot", time: .seconds(30)), at: instant(1))
    }
    #expect(
      error?.description
        == "'30' is not a value of shot: expected a time M:SS, M:SS.t, SS or SS.t (such as "
        + "12:00, 0:52.4, 24 or 4.9) up to 24")
    #expect(board.time("shot", at: instant(1)) == .seconds(24))
  }

  @Test func startStopAndResetClockWithoutANameActOnTheGameClock() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(0))
    try board.run(.resetClock(clock: nil, time: .seconds(300)), at: instant(1))
    #expect(board.clock("game") == ClockState(time: .seconds(300), startedAt: instant(1)))
    #expect(board.spec.mainClock == 0)
  }
}
