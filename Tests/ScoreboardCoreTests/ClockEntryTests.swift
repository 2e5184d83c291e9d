import ScoreboardCore
import Testing

/// Setting a stopped clock by typing its time on the keypad: calculator style (`1200`
/// for 12:00, a fifth digit for tenths) and type-over.
@Suite struct ClockEntryTests {
  /// An ice hockey board: a 20:00 game clock and home.
  static let hockey = ClockFixtures.spec(
    [ClockFixtures.game(length: .seconds(1200)), ClockFixtures.home], horns: [])
  /// A basketball game clock of 12:00 alone, loaded with 10:00.
  static func basketball(
    entry: NumberFormat.EntryMode = .shift, commitOnLastDigit: Bool = true
  ) -> Scoreboard {
    ClockFixtures.board(
      ClockFixtures.spec(
        [
          ClockFixtures.game(entry: entry, commitOnLastDigit: commitOnLastDigit),
          ClockFixtures.home,
        ], horns: []), game: .seconds(600))
  }

  @Test(arguments: [
    ([1, 2, 0, 0], Duration.seconds(720), "12:00.0", "12:00"),
    ([1, 2, 3, 4, 5], .milliseconds(754_500), "12:34.5", "12:35"),
    ([0, 0, 5, 2, 4], .milliseconds(52_400), "52.4", " 52.4"),
    ([1, 3, 0], .seconds(90), "1:30.0", " 1:30"),
    ([5], .seconds(5), "5.0", "  5.0"),
    ([0], .zero, "0.0", "  0.0"),
  ])
  func typingSetsTheGameClock(digits: [Int], time: Duration, exact: String, shown: String)
    throws
  {
    var board = Scoreboard(spec: Self.hockey)
    let events2 = try board.run(.select(field: "game"), at: instant(1))
    #expect(events2 == [.editingBegan(field: "game")])
    for digit in digits {
      let events = try board.run(.digit(digit), at: instant(2))
      #expect(events.count == 1)
      guard case .editingChanged(field: "game", _)? = events.first else {
        Issue.record("expected the entry to change, got \(events)")
        return
      }
    }
    #expect(board.time("game", at: instant(2)) == .seconds(1200), "typing is not setting")
    let events = try board.run(.commit, at: instant(3))
    #expect(
      events == [
        .editingEnded(field: "game", committed: true),
        .clockChanged(field: "game", from: .seconds(1200), to: time),
      ])
    #expect(board.time("game", at: instant(9)) == time)
    #expect(board.text(of: "game", at: instant(9)) == exact)
    #expect(board.shows("game", at: instant(9)) == shown)
    #expect(board.clock("game")?.isRunning == false, "setting does not start the clock")
    #expect(board.undoHistory.count == 1)
  }

  @Test func theEntryShowsTheDigitsAsTyped() throws {
    var board = Scoreboard(spec: Self.hockey)
    try board.run(.select(field: "game"), at: instant(0))
    #expect(board.shows("game", at: instant(0)) == "20:00", "the old time until the first digit")
    var shown: [String] = []
    for digit in [1, 2, 3, 4, 5] {
      try board.run(.digit(digit), at: instant(1))
      shown.append(board.shows("game", at: instant(1)))
    }
    // The colon stands where it will be; four cells show the last four of five digits.
    #expect(shown == ["  : 1", "  :12", " 1:23", "12:34", "234.5"])
    #expect(board.shows("game", at: .milliseconds(1_500)) == "234. ", "the cursor blinks")
  }

  @Test func fiveThreeEightOnAShotClockOfOneMinuteIs53Point8() throws {
    let spec = ClockFixtures.spec(
      [ClockFixtures.shot(length: .seconds(60), resets: [], follows: nil, width: 3)], horns: [])
    var board = Scoreboard(spec: spec)
    try board.run(.select(field: "shot"), .digit(5), .digit(3), .digit(8), at: instant(1))
    #expect(board.shows("shot", at: instant(1)) == "53.8")
    let events = try board.run(.commit, at: instant(2))
    #expect(
      events.last == .clockChanged(field: "shot", from: .seconds(60), to: .milliseconds(53_800)))
    #expect(board.text(of: "shot") == "53.8")
    #expect(board.shows("shot", at: instant(3)) == " 54", "whole seconds above 5 s, rounded up")
  }

  @Test func fiveThreeEightOnA24SecondShotClockIsRefused() throws {
    var board = Scoreboard(spec: ClockFixtures.spec([ClockFixtures.shot(follows: nil)], horns: []))
    try board.run(.select(field: "shot"), .digit(5), .digit(3), .digit(8), at: instant(1))
    let events = try board.run(.commit, at: instant(2))
    #expect(events == [.refused(field: "shot")])
    #expect(board.session?.field == 0, "the entry stays open to be corrected")
    #expect(board.shows("shot", at: instant(2)) == "  ", "a refusal flashes the clock")
    #expect(board.time("shot", at: instant(2)) == .seconds(24))
    try board.run(.backspace, .backspace, .backspace, .digit(1), .digit(4), at: instant(3))
    let events2 = try board.run(.commit, at: instant(4))
    #expect(
      events2.last
        == .clockChanged(field: "shot", from: .seconds(24), to: .seconds(14)))
  }

  @Test(arguments: [[1, 2, 7, 5], [1, 3, 0, 0], [1, 2, 0, 0, 1], [9, 9, 5, 9, 9]])
  func aTimeThatIsNoTimeOrLongerThanThePeriodIsRefused(digits: [Int]) throws {
    var board = Self.basketball()
    try board.run(.select(field: "game"), at: instant(1))
    for digit in digits {
      try board.run(.digit(digit), at: instant(1))
    }
    let events = try board.run(.commit, at: instant(2))
    #expect(events == [.refused(field: "game")])
    #expect(board.session != nil, "the entry stays open")
    #expect(board.shows("game", at: instant(2)) == "    ", "the clock flashes dark")
    #expect(board.shows("game", at: instant(2) + .milliseconds(300)) != "    ")
    #expect(board.time("game", at: instant(2)) == .seconds(600))
    #expect(board.undoHistory.isEmpty)
    // Typed anew, it is taken.
    try board.run(.select(field: "game"), at: instant(3))
    #expect(board.session != nil, "moving on from a refused entry stays on it")
    try board.run(
      .cancel, .select(field: "game"), .digit(1), .digit(1), .digit(5), .digit(9), at: instant(4))
    let events2 = try board.run(.commit, at: instant(5))
    #expect(
      events2
        == [
          .editingEnded(field: "game", committed: true),
          .clockChanged(field: "game", from: .seconds(600), to: .seconds(719)),
        ])
  }

  @Test func aSixthDigitIsRefused() throws {
    var board = Scoreboard(spec: Self.hockey)
    try board.run(
      .select(field: "game"), .digit(1), .digit(2), .digit(3), .digit(4), .digit(5), at: instant(1))
    let events = try board.run(.digit(6), at: instant(2))
    #expect(events == [.refused(field: "game")])
    #expect(board.session?.entry == .shift(digits: [1, 2, 3, 4, 5], fresh: false))
    try board.run(.commit, at: instant(3))
    #expect(board.text(of: "game") == "12:34.5")
  }

  @Test func backspaceDropsTheLastDigit() throws {
    var board = Self.basketball()
    try board.run(
      .select(field: "game"), .digit(1), .digit(2), .digit(3), .backspace, at: instant(1))
    #expect(board.shows("game", at: instant(1)) == "  :12")
    try board.run(.digit(0), .digit(0), .commit, at: instant(2))
    #expect(board.text(of: "game") == "12:00.0")
  }

  @Test func backspaceBeforeAnyDigitEditsTheOldTime() throws {
    var board = Self.basketball()
    try board.run(.select(field: "game"), .backspace, at: instant(1))
    #expect(board.session?.entry == .shift(digits: [1, 0, 0], fresh: false))
    try board.run(.commit, at: instant(2))
    #expect(board.text(of: "game") == "1:00.0")
  }

  @Test func cancelRestoresTheTime() throws {
    var board = Self.basketball()
    try board.run(.select(field: "game"), .digit(5), .digit(0), at: instant(1))
    let events = try board.run(.cancel, at: instant(2))
    #expect(events == [.editingEnded(field: "game", committed: false)])
    #expect(board.time("game", at: instant(2)) == .seconds(600))
    #expect(board.shows("game", at: instant(2)) == "10:00")
    #expect(board.undoHistory.isEmpty)
  }

  @Test func upAndDownWhileTypingStepTheEntryBySeconds() throws {
    var board = Self.basketball()
    try board.run(
      .select(field: "game"), .add(field: nil, amount: 1), .add(field: nil, amount: 1),
      at: instant(1))
    #expect(board.time("game", at: instant(1)) == .seconds(600), "the entry changes, not the clock")
    #expect(board.shows("game", at: instant(1)) == "10:02")
    try board.run(.commit, at: instant(2))
    #expect(board.time("game", at: instant(2)) == .seconds(602))
  }

  @Test func typeOverMovesTheCursorAndCommitsAtTheLastDigit() throws {
    var board = Self.basketball(entry: .overwrite)
    try board.run(.select(field: "game"), at: instant(1))
    #expect(board.session?.entry == .overwrite(cells: [1, 0, 0, 0], cursor: 0))
    try board.run(.digit(0), .digit(9), .digit(4), at: instant(2))
    #expect(board.session?.entry == .overwrite(cells: [0, 9, 4, 0], cursor: 3))
    #expect(board.shows("game", at: instant(2)) == "09:40")
    let events = try board.run(.digit(5), at: instant(3))
    #expect(
      events.suffix(2) == [
        .editingEnded(field: "game", committed: true),
        .clockChanged(field: "game", from: .seconds(600), to: .seconds(585)),
      ])
    #expect(board.session == nil)
    #expect(board.shows("game", at: instant(3)) == " 9:45")
  }

  @Test func typeOverRefusesALastDigitThatMakesNoTime() throws {
    var board = Self.basketball(entry: .overwrite)
    try board.run(.select(field: "game"), .digit(1), .digit(2), .digit(7), at: instant(1))
    let events = try board.run(.digit(5), at: instant(2))
    #expect(events == [.refused(field: "game")], "12:75")
    #expect(board.session?.entry == .overwrite(cells: [1, 2, 7, 0], cursor: 3))
    let events2 = try board.run(.digit(0), at: instant(3))
    #expect(events2 == [.refused(field: "game")], "12:70")
    try board.run(.backspace, .digit(0), at: instant(4))
    #expect(board.session?.entry == .overwrite(cells: [1, 2, 0, 0], cursor: 3))
    try board.run(.digit(0), at: instant(5))
    #expect(board.session == nil)
    #expect(board.time("game", at: instant(5)) == .seconds(720))
  }

  @Test func typeOverRefusesATimeLongerThanThePeriod() throws {
    var board = Self.basketball(entry: .overwrite)
    try board.run(.select(field: "game"), .digit(1), .digit(3), .digit(0), at: instant(1))
    let events = try board.run(.digit(0), at: instant(2))
    #expect(events == [.refused(field: "game")])
    #expect(board.time("game", at: instant(2)) == .seconds(600))
  }

  @Test func typeOverWithoutCommitOnLastDigitWaitsForDone() throws {
    var board = Self.basketball(entry: .overwrite, commitOnLastDigit: false)
    try board.run(
      .select(field: "game"), .digit(0), .digit(8), .digit(3), .digit(0), .digit(5), at: instant(1))
    #expect(
      board.session?.entry == .overwrite(cells: [0, 8, 3, 5], cursor: 3),
      "the last cell is typed over")
    #expect(board.time("game", at: instant(1)) == .seconds(600))
    try board.run(.commit, at: instant(2))
    #expect(board.time("game", at: instant(2)) == .seconds(515))
  }

  @Test func typeOverBackspaceMovesTheCursorLeft() throws {
    var board = Self.basketball(entry: .overwrite)
    try board.run(.select(field: "game"), .digit(0), .digit(5), .backspace, at: instant(1))
    #expect(board.session?.entry == .overwrite(cells: [0, 5, 0, 0], cursor: 1))
    try board.run(.backspace, .backspace, at: instant(1))
    #expect(
      board.session?.entry == .overwrite(cells: [0, 5, 0, 0], cursor: 0),
      "it stops at the first cell")
    try board.run(.digit(0), .digit(8), .digit(3), .digit(0), at: instant(2))
    #expect(board.time("game", at: instant(2)) == .seconds(510))
  }

  @Test func typeOverAShotClock() throws {
    var board = Scoreboard(
      spec: ClockFixtures.spec([ClockFixtures.shot(follows: nil, entry: .overwrite)], horns: []))
    try board.run(.select(field: "shot"), at: instant(1))
    #expect(board.session?.entry == .overwrite(cells: [2, 4], cursor: 0))
    try board.run(.digit(1), .digit(4), at: instant(1))
    #expect(board.time("shot", at: instant(1)) == .seconds(14))
  }

  @Test func digitsAreRefusedOnARunningClock() throws {
    var board = Self.basketball()
    try board.run(.start(clock: nil), at: instant(1))
    let events = try board.run(.digit(5), at: instant(2))
    #expect(events == [.refused(field: "game")])
    #expect(board.session == nil)
    let events2 = try board.run(.select(field: "home"), .select(field: "game"), at: instant(3))
    #expect(
      events2.contains(
        .editingBegan(field: "game")) == false)
    #expect(board.session == nil, "a running clock opens no entry")
    #expect(board.time("game", at: instant(4)) == .seconds(597), "it runs on")
  }

  @Test func startingWhileTypingSetsTheTypedTimeFirst() throws {
    var board = Self.basketball()
    try board.run(.select(field: "game"), .digit(5), .digit(0), .digit(0), at: instant(1))
    let events = try board.run(.start(clock: nil), at: instant(2))
    #expect(
      events == [
        .editingEnded(field: "game", committed: true),
        .clockChanged(field: "game", from: .seconds(600), to: .seconds(300)),
        .clockStarted(field: "game", time: .seconds(300)),
      ])
    #expect(board.time("game", at: instant(3)) == .seconds(299))
  }

  @Test func startingWithARefusedEntryLeavesTheClockStopped() throws {
    var board = Self.basketball()
    try board.run(
      .select(field: "game"), .digit(1), .digit(2), .digit(7), .digit(5), at: instant(1))
    let events = try board.run(.start(clock: nil), at: instant(2))
    #expect(events == [.refused(field: "game")])
    #expect(board.clock("game")?.isRunning == false)
    #expect(board.session != nil)
  }

  /// A clock stopped at a kernel timestamp: 11:56.543210877 on it, `11:57` shown.
  static func stoppedAtAnOddInstant(_ entry: NumberFormat.EntryMode) throws -> Scoreboard {
    var board = ClockFixtures.board(
      ClockFixtures.spec([ClockFixtures.game(entry: entry), ClockFixtures.home], horns: []))
    try board.run(.start(clock: nil), at: instant(10))
    try board.run(.stop(clock: nil), at: instant(13, 456_789_123))
    #expect(board.time("game", at: instant(20)) == .nanoseconds(716_543_210_877))
    #expect(board.shows("game", at: instant(20)) == "11:57")
    return board
  }

  @Test(arguments: [NumberFormat.EntryMode.shift, .overwrite])
  func theFocusPassingThroughAStoppedClockKeepsItsTime(entry: NumberFormat.EntryMode) throws {
    var board = try Self.stoppedAtAnOddInstant(entry)
    let events = try board.run(
      .select(field: "game"), .next, .previous, .commit, .select(field: "game"),
      .add(field: nil, amount: 1), .add(field: nil, amount: -1), .next, at: instant(21))
    #expect(!events.contains { if case .clockChanged = $0 { true } else { false } }, "\(events)")
    #expect(board.time("game", at: instant(22)) == .nanoseconds(716_543_210_877))
    #expect(board.undoHistory.isEmpty)
  }

  @Test func theEntryStartsFromTheTimeAsTheClockShowsIt() throws {
    var shift = try Self.stoppedAtAnOddInstant(.shift)
    try shift.run(.select(field: "game"), at: instant(21))
    #expect(shift.session?.entry == .shift(digits: [1, 1, 5, 6, 6], fresh: true), "11:56.6")
    #expect(shift.text(of: "game") == "11:56.6")
    var typeOver = try Self.stoppedAtAnOddInstant(.overwrite)
    try typeOver.run(.select(field: "game"), at: instant(21))
    #expect(typeOver.session?.entry == .overwrite(cells: [1, 1, 5, 7], cursor: 0), "11:57")
    #expect(typeOver.shows("game", at: instant(21)) == "11:57")
  }

  @Test func theIdleTimeoutCancelsAClockEntry() throws {
    var board = Self.basketball()
    try board.run(.select(field: "game"), .digit(3), at: instant(1))
    #expect(board.advance(to: instant(16)) == [.editingEnded(field: "game", committed: false)])
    #expect(board.time("game", at: instant(16)) == .seconds(600))
  }
}
