import ScoreboardCore
import TestExpectations
import Testing

/// Clocks in the state file: their time in nanoseconds, and while one runs, the instant
/// it started on the monotonic clock of the boot the file names.
@Suite struct SavedClockStateTests {
  static let file = """
    # scoreboardd state; written by scoreboardd on every change
    version 2
    brightness 8
    blank off
    field home 12
    boot 0f4c3a6e-8d1b-4c7e-9a55-2b6f1e0d9c31
    clock game 690123456789 running 81234567890123
    clock shot 24000000000 stopped

    """

  static let state = SavedState(
    values: ["home": "12"], brightness: 8, isBlanked: false,
    clocks: [
      "game": ClockState(
        time: .nanoseconds(690_123_456_789), startedAt: Instant(nanoseconds: 81_234_567_890_123)),
      "shot": ClockState(time: .seconds(24)),
    ], bootID: "0f4c3a6e-8d1b-4c7e-9a55-2b6f1e0d9c31")

  @Test func writesAndReadsClockLines() throws {
    #expect(Self.state.encoded() == Self.file)
    let read = try SavedState(parsing: Self.file)
    #expect(read == Self.state)
  }

  @Test func aBoardWithARunningClockRoundTrips() throws {
    var board = ClockFixtures.board()
    try board.run(.set(field: "home", value: "12"), at: instant(0))
    let start = Instant(nanoseconds: 81_234_567_890_123)
    try board.run(.start(clock: nil), at: start)
    try board.run(.stop(clock: "shot"), at: start + .nanoseconds(3_210_987_654))
    let state = SavedState(from: board, bootID: "0f4c3a6e-8d1b-4c7e-9a55-2b6f1e0d9c31")
    #expect(state.clocks["game"] == ClockState(time: .seconds(720), startedAt: start))
    #expect(state.clocks["shot"] == ClockState(time: .nanoseconds(20_789_012_346)))
    #expect(state.values == ["home": "12"], "clocks are not fields")
    #expect(state.encoded().contains("clock game 720000000000 running 81234567890123\n"))
    #expect(state.encoded().contains("clock shot 20789012346 stopped\n"))

    let read = try SavedState(parsing: state.encoded())
    #expect(read == state)
    var restored = ClockFixtures.board()
    #expect(read.apply(to: &restored) == [])
    #expect(restored.clocks == board.clocks)
    #expect(restored.undoHistory.isEmpty)
    let later = start + .seconds(100)
    #expect(restored.time("game", at: later) == board.time("game", at: later), "it runs on")
    #expect(restored.shows("game", at: later) == "10:20")
    #expect(restored.nextDeadline(after: later) == later + .seconds(1))
  }

  @Test func aStoppedBoardRoundTrips() throws {
    var board = ClockFixtures.board()
    try board.run(.start(clock: nil), at: instant(1))
    try board.run(.stop(clock: nil), at: instant(2, 345_678_901))
    let read = try SavedState(parsing: SavedState(from: board).encoded())
    #expect(read.bootID == nil)
    var restored = ClockFixtures.board()
    #expect(read.apply(to: &restored) == [])
    #expect(restored.clocks == board.clocks)
    #expect(restored.clock("game") == ClockState(time: .nanoseconds(718_654_321_099)))
  }

  @Test func applyIgnoresClocksThatAreGoneOrNoLongerClocksAndClampsToTheLength() throws {
    let text = """
      version 1
      clock home 5000000000 stopped
      clock gone 5000000000 stopped
      clock game 900000000000 stopped
      clock shot 3000000000 running 42

      """
    let state = try SavedState(parsing: text)
    var board = ClockFixtures.board()
    #expect(state.apply(to: &board) == ["gone", "home"])
    #expect(board.clock("game") == ClockState(time: .seconds(720)), "12:00 at most")
    #expect(
      board.clock("shot") == ClockState(time: .seconds(3), startedAt: Instant(nanoseconds: 42)))
    #expect(board.text(of: "home") == "0")
    var fieldLine = ClockFixtures.board()
    #expect(
      SavedState(values: ["shot": "10"]).apply(to: &fieldLine) == ["shot"],
      "a clock's time is no value")
    #expect(fieldLine.clock("shot") == ClockState(time: .seconds(24)))
  }

  @Test(arguments: [
    "clock game", "clock game x stopped", "clock game -5 stopped", "clock game 5 paused",
    "clock game 5 running", "clock game 5 stopped 7", "clock game 5 running x",
    "clock game 5.5 stopped", "clock game 5 Stopped", "clock game 99999999999999999999 stopped",
  ])
  func refusesMalformedClockLines(line: String) {
    let error = expectError(SavedStateError.self) {
      try SavedState(parsing: "version 1\n\(line)\n")
    }
    #expect(
      error
        == SavedStateError(
          line: 2,
          problem: .badLine(
            line,
            expected: "'clock', a name, nanoseconds and 'stopped' or 'running' and a start instant")
        ))
    #expect(
      error?.description
        == "line 2: expected 'clock', a name, nanoseconds and 'stopped' or 'running' and a start "
        + "instant, found \"\(line)\"")
  }

  @Test func refusesAClockGivenTwiceOrAsAFieldToo() {
    let twice = expectError(SavedStateError.self) {
      try SavedState(parsing: "version 1\nclock game 5 stopped\n\nclock game 6 stopped\n")
    }
    #expect(twice == SavedStateError(line: 4, problem: .duplicateField("game", firstLine: 2)))
    let both = expectError(SavedStateError.self) {
      try SavedState(parsing: "version 1\nfield game 10:00\nclock game 6 stopped\n")
    }
    #expect(both == SavedStateError(line: 3, problem: .duplicateField("game", firstLine: 2)))
    let boots = expectError(SavedStateError.self) {
      try SavedState(parsing: "version 1\nboot a\nboot b\n")
    }
    #expect(boots == SavedStateError(line: 3, problem: .duplicateSetting("boot", firstLine: 2)))
    let bootWords = expectError(SavedStateError.self) {
      try SavedState(parsing: "version 1\nboot a b\n")
    }
    #expect(
      bootWords?.description
        == "line 2: expected 'boot' and the kernel's boot id, found \"boot a b\"")
  }

  @Test func anOpenEntryOnAClockIsNotSaved() throws {
    var board = ClockFixtures.board()
    try board.run(.select(field: "game"), .digit(5), at: instant(1))
    #expect(SavedState(from: board).clocks["game"] == ClockState(time: .seconds(720)))
  }
}
