import ScoreboardCore
import TestExpectations
import Testing

/// Horns: sounding from a clock's zero for their duration, while a horn key is held (no
/// longer than the hold limit), and for `horn` from the control socket.
@Suite struct HornTests {
  /// The basketball board with the game clock at `game`, the shot clock switched off.
  static func board(game: Duration = .seconds(5)) -> Scoreboard {
    ClockFixtures.board(
      ClockFixtures.spec([ClockFixtures.game(), ClockFixtures.home]), game: game)
  }

  @Test func theHornSoundsFromTheZeroInstantForItsDuration() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(1))
    #expect(board.nextDeadline(after: instant(5, 950_000_000)) == instant(6))
    #expect(board.horn("main", at: instant(6)) == false, "not before the clock ran out")
    #expect(board.advance(to: instant(6, -1)).isEmpty)
    #expect(
      board.advance(to: instant(6)) == [
        .clockRanOut(field: "game"), .hornChanged(horn: "main", sounding: true),
      ])
    #expect(board.horn("main", at: instant(6)))
    #expect(board.horn("buzzer", at: instant(6)) == false, "another clock's horn")
    #expect(board.nextDeadline(after: instant(6)) == instant(7, 500_000_000))
    #expect(board.advance(to: instant(7, 499_999_999)).isEmpty)
    #expect(board.horn("main", at: instant(7, 499_999_999)))
    #expect(
      board.advance(to: instant(7, 500_000_000)) == [.hornChanged(horn: "main", sounding: false)])
    #expect(board.horn("main", at: instant(7, 500_000_000)) == false)
    #expect(board.nextDeadline(after: instant(7, 500_000_000)) == nil)
  }

  @Test func aLateLookAtZeroStillSeesTheHornFromTheZeroInstant() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(1))
    // The caller wakes 200 ms late: the horn still stops 1.5 s after the zero.
    #expect(
      board.advance(to: instant(6, 200_000_000)) == [
        .clockRanOut(field: "game"), .hornChanged(horn: "main", sounding: true),
      ])
    #expect(board.nextDeadline(after: instant(6, 200_000_000)) == instant(7, 500_000_000))
  }

  @Test func aHeldHornKeySoundsItUntilReleased() throws {
    var board = Self.board()
    let events = try board.run(.horn(nil), at: instant(1))
    #expect(events == [.hornChanged(horn: "main", sounding: true)])
    #expect(board.horn("main", at: instant(2)))
    let events2 = try board.run(.horn("main"), at: instant(2))
    #expect(events2.isEmpty, "a repeat of the key")
    #expect(board.releaseHorn(nil, at: instant(3)) == [.hornChanged(horn: "main", sounding: false)])
    #expect(board.horn("main", at: instant(3)) == false)
    #expect(board.releaseHorn("main", at: instant(4)).isEmpty)
    #expect(board.nextDeadline(after: instant(4)) == nil)
  }

  @Test func theHoldLimitEndsAStuckHornKey() throws {
    var board = Self.board()
    try board.run(.horn("main"), at: instant(10))
    #expect(board.nextDeadline(after: instant(10)) == instant(15))
    try board.run(.horn("main"), at: instant(14))
    #expect(board.nextDeadline(after: instant(14)) == instant(15), "a repeat does not extend it")
    #expect(board.advance(to: instant(15)) == [.hornChanged(horn: "main", sounding: false)])
    #expect(board.horn("main", at: instant(15)) == false)
    #expect(board.releaseHorn("main", at: instant(20)).isEmpty, "the late release")
    let events = try board.run(.horn("main"), at: instant(21))
    #expect(events == [.hornChanged(horn: "main", sounding: true)])
  }

  @Test func releasingTheKeyLeavesTheHornOfAClockSounding() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(1))
    _ = board.advance(to: instant(6))
    let events = try board.run(.horn(nil), at: instant(6, 100_000_000))
    #expect(events.isEmpty, "already sounding")
    #expect(board.releaseHorn(nil, at: instant(6, 500_000_000)).isEmpty)
    #expect(board.horn("main", at: instant(7)))
    #expect(
      board.advance(to: instant(7, 500_000_000)) == [.hornChanged(horn: "main", sounding: false)])
  }

  @Test func soundHornSoundsItForItsDuration() throws {
    var board = Self.board()
    let events = try board.soundHorn("buzzer", at: instant(2))
    #expect(
      events == [
        .hornChanged(horn: "buzzer", sounding: true)
      ])
    #expect(board.nextDeadline(after: instant(2)) == instant(3))
    #expect(board.advance(to: instant(3)) == [.hornChanged(horn: "buzzer", sounding: false)])
    let events2 = try board.soundHorn(nil, at: instant(4))
    #expect(
      events2 == [.hornChanged(horn: "main", sounding: true)],
      "the first horn")
    #expect(board.horn("main", at: instant(5, 499_999_999)))
    #expect(board.horn("main", at: instant(5, 500_000_000)) == false)
  }

  @Test func anUnknownHornIsAnError() {
    var board = Self.board()
    let error = expectError(ScoreboardError.self) { try board.soundHorn("siren", at: instant(1)) }
    #expect(error == .unknownHorn("siren", known: ["main", "buzzer"]))
    #expect(error?.description == "no horn named 'siren' (horns: main, buzzer)")
    let key = expectError(ScoreboardError.self) {
      try board.perform(.horn("siren"), at: instant(1))
    }
    #expect(key == .unknownHorn("siren", known: ["main", "buzzer"]))
    var silent = Scoreboard(spec: Fixtures.spec())
    let none = expectError(ScoreboardError.self) { try silent.soundHorn(nil, at: instant(1)) }
    #expect(none?.description == "no horn is configured")
    #expect(silent.releaseHorn(nil, at: instant(2)).isEmpty)
  }

  /// A horn that warns at 60 s and at 10 s left on a game clock of 70 s.
  static func warningBoard() -> Scoreboard {
    let horn = HornSpec(
      name: "main", clocks: [], duration: .seconds(1),
      warnings: [
        HornSpec.Warning(clock: "game", left: .seconds(60)),
        HornSpec.Warning(clock: "game", left: .seconds(10)),
      ])
    return ClockFixtures.board(
      ClockFixtures.spec([ClockFixtures.game(), ClockFixtures.home], horns: [horn]),
      game: .seconds(70))
  }

  @Test func eachWarningSoundsTheHornOnceFromItsInstant() throws {
    var board = Self.warningBoard()
    try board.run(.start(clock: nil), at: instant(1))
    #expect(board.advance(to: instant(10, 999_999_999)).isEmpty)
    #expect(board.advance(to: instant(11)) == [.hornChanged(horn: "main", sounding: true)])
    #expect(board.advance(to: instant(12)) == [.hornChanged(horn: "main", sounding: false)])
    #expect(board.advance(to: instant(60)).isEmpty, "the first warning sounds once")
    #expect(board.advance(to: instant(61)) == [.hornChanged(horn: "main", sounding: true)])
    #expect(board.horn("main", at: instant(61, 999_999_999)))
    #expect(board.advance(to: instant(62)) == [.hornChanged(horn: "main", sounding: false)])
  }

  @Test func aLateLookPastTwoWarningsSoundsTheHornFromTheLaterOne() throws {
    var board = Self.warningBoard()
    try board.run(.start(clock: nil), at: instant(1))
    // Both warnings came (at 11 and at 61) before this first look.
    #expect(
      board.advance(to: instant(61, 500_000_000)) == [.hornChanged(horn: "main", sounding: true)])
    #expect(board.horn("main", at: instant(61, 500_000_000)))
    #expect(board.advance(to: instant(62)) == [.hornChanged(horn: "main", sounding: false)])
    #expect(board.advance(to: instant(70)).isEmpty)
  }

  @Test func aBoardWithoutWarningsLeavesItsHornsSilent() throws {
    var board = Self.board()
    try board.run(.start(clock: nil), at: instant(1))
    #expect(board.advance(to: instant(5, 999_999_999)).isEmpty)
    #expect(board.horn("main", at: instant(5, 999_999_999)) == false)
  }
}
