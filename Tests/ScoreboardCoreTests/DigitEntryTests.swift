import ScoreboardCore
import Testing

@Suite struct OverwriteEntryTests {
  @Test func typeOverAdvancesAndCommitsAtTheLastCell() throws {
    var scenario = Scenario()
    #expect(scenario.shows(at: 0) == " 0 00 1")
    let first = try scenario.at(1_000, .digit(1))
    #expect(first == [.editingBegan(field: "home"), .editingChanged(field: "home", text: "10")])
    #expect(scenario.value("home") == "0")
    let second = try scenario.at(1_200, .digit(2))
    #expect(
      second == [
        .editingChanged(field: "home", text: "12"),
        .editingEnded(field: "home", committed: true),
        .valueChanged(field: "home", from: 0, to: 12),
      ])
    #expect(scenario.board.session == nil)
    #expect(scenario.shows(at: 1_300) == "12 00 1")
  }

  @Test func withoutCommitOnLastDigitTheSessionStaysOpenUntilDone() throws {
    var scenario = Scenario(
      Fixtures.spec(home: Fixtures.number("home", position: 0, commitOnLastDigit: false)))
    try scenario.at(0, .digit(4), .digit(5), .digit(6))
    #expect(scenario.board.session != nil)
    #expect(scenario.value("home") == "0")
    let events = try scenario.at(100, .commit)
    #expect(events.contains(.valueChanged(field: "home", from: 0, to: 46)))
  }

  @Test func backspaceMovesTheCursorLeft() throws {
    var scenario = Scenario()
    try scenario.at(0, .digit(1), .backspace, .digit(3), .digit(4))
    #expect(scenario.value("home") == "34")
  }

  @Test func backspaceAtTheFirstCellStaysThere() throws {
    var scenario = Scenario()
    try scenario.at(0, .digit(7), .backspace, .backspace, .digit(2))
    guard case .overwrite(let cells, let cursor) = scenario.board.session?.entry else {
      Issue.record("expected an overwrite session")
      return
    }
    #expect(cells == [2, 0])
    #expect(cursor == 1)
  }

  @Test func aDigitAboveTheMaximumIsRefusedAndFlashes() throws {
    var scenario = Scenario(Fixtures.spec(home: Fixtures.number("home", position: 0, maximum: 30)))
    let events = try scenario.at(0, .digit(4))
    #expect(events == [.editingBegan(field: "home"), .refused(field: "home")])
    #expect(scenario.shows(at: 100) == "   00 1", "the field is dark while it flashes")
    #expect(scenario.board.nextDeadline(after: .milliseconds(100)) == .milliseconds(300))
    scenario.advance(to: 300)
    #expect(scenario.shows(at: 300).hasPrefix("_0"), "the cursor is back on the empty first cell")
    try scenario.at(400, .digit(2), .digit(9))
    #expect(scenario.value("home") == "29")
  }

  @Test func aLastDigitBelowTheMinimumIsRefused() throws {
    var scenario = Scenario(
      Fixtures.spec(home: Fixtures.number("home", position: 0, minimum: 1, defaultValue: 1)))
    let events = try scenario.at(0, .digit(0), .digit(0))
    #expect(events.last == .refused(field: "home"))
    #expect(scenario.value("home") == "1")
    try scenario.at(100, .digit(5))
    #expect(scenario.value("home") == "5")
  }

  @Test func leadingZerosShowWhileTypingAndThePlaceholderAfterCommit() throws {
    var scenario = Scenario(
      Fixtures.spec(home: Fixtures.number("home", position: 0, commitOnLastDigit: false)))
    try scenario.at(0, .digit(0), .digit(5))
    #expect(scenario.shows(at: 0) == "05 00 1")
    try scenario.at(10, .commit)
    #expect(scenario.shows(at: 10) == " 5 00 1")
  }
}

@Suite struct ShiftEntryTests {
  @Test func digitsEnterFromTheRight() throws {
    var scenario = Scenario()
    try scenario.at(0, .select(field: "away"))
    #expect(scenario.shows(at: 0) == " 0 00 1", "the old value shows until the first digit")
    let events = try scenario.at(100, .digit(4))
    #expect(events == [.editingChanged(field: "away", text: "04")])
    try scenario.at(200, .digit(2))
    #expect(scenario.shows(at: 200) == " 0 42 1")
    try scenario.at(300, .commit)
    #expect(scenario.value("away") == "42")
  }

  @Test func backspaceDropsTheLastDigit() throws {
    var scenario = Scenario()
    try scenario.at(0, .select(field: "away"), .digit(4), .digit(2), .backspace)
    #expect(scenario.shows(at: 0) == " 0 04 1")
    try scenario.at(10, .backspace, .digit(7), .commit)
    #expect(scenario.value("away") == "7")
  }

  @Test func aDigitBeyondTheFieldIsRefused() throws {
    var scenario = Scenario()
    let events = try scenario.at(0, .select(field: "away"), .digit(1), .digit(2), .digit(3))
    #expect(events.last == .refused(field: "away"))
    try scenario.at(10, .commit)
    #expect(scenario.value("away") == "12")
  }

  @Test func firstDigitReplacesTheOldValue() throws {
    var scenario = Scenario()
    try scenario.at(0, .set(field: "away", value: "35"))
    try scenario.at(10, .select(field: "away"), .digit(8), .commit)
    #expect(scenario.value("away") == "8")
  }
}

@Suite struct EditSessionTests {
  @Test func cancelRestoresTheOldValue() throws {
    var scenario = Scenario()
    try scenario.at(0, .set(field: "home", value: "21"))
    let events = try scenario.at(100, .digit(9), .cancel)
    #expect(events.last == .editingEnded(field: "home", committed: false))
    #expect(!events.contains { if case .valueChanged = $0 { true } else { false } })
    #expect(scenario.value("home") == "21")
    #expect(scenario.shows(at: 100) == "21 00 1")
  }

  @Test func theIdleTimeoutCancels() throws {
    var scenario = Scenario()
    try scenario.at(0, .digit(9))
    #expect(scenario.advance(to: 4_999).isEmpty)
    try scenario.at(5_000, .backspace)  // a key restarts the timeout
    #expect(scenario.advance(to: 19_999).isEmpty)
    #expect(scenario.board.nextDeadline(after: .milliseconds(19_999)) == .milliseconds(20_000))
    #expect(scenario.advance(to: 20_000) == [.editingEnded(field: "home", committed: false)])
    #expect(scenario.value("home") == "0")
    #expect(scenario.board.nextDeadline(after: .milliseconds(20_000)) == nil)
  }

  @Test func aKeyAfterTheTimeoutStartsAFreshSession() throws {
    var scenario = Scenario()
    try scenario.at(0, .digit(9))
    let events = try scenario.at(16_000, .digit(3))
    #expect(
      events == [
        .editingEnded(field: "home", committed: false), .editingBegan(field: "home"),
        .editingChanged(field: "home", text: "30"),
      ])
  }

  @Test func noTimeoutWhenDisabled() throws {
    var scenario = Scenario(Fixtures.spec(editTimeout: nil))
    try scenario.at(0, .digit(9))
    #expect(scenario.advance(to: 3_600_000).isEmpty)
    #expect(scenario.board.session != nil)
  }

  @Test func nextCommitsAndEditsTheNextField() throws {
    var scenario = Scenario(
      Fixtures.spec(home: Fixtures.number("home", position: 0, commitOnLastDigit: false)))
    let events = try scenario.at(0, .digit(3), .next)
    #expect(
      events == [
        .editingBegan(field: "home"), .editingChanged(field: "home", text: "30"),
        .editingEnded(field: "home", committed: true),
        .valueChanged(field: "home", from: 0, to: 30),
        .focusChanged(field: "away"), .editingBegan(field: "away"),
      ])
    try scenario.at(10, .previous, .previous)
    #expect(scenario.board.focus == 2, "previous wraps to the last field")
  }

  @Test func upAndDownWhileEditingChangeTheEntryNotTheValue() throws {
    var scenario = Scenario()
    try scenario.at(
      0, .select(field: "away"), .add(field: nil, amount: 1), .add(field: nil, amount: 1))
    #expect(scenario.value("away") == "0")
    #expect(scenario.shows(at: 0) == " 0 02 1")
    try scenario.at(10, .commit)
    #expect(scenario.value("away") == "2")
  }

  @Test func commitWithNothingTypedChangesNothing() throws {
    var scenario = Scenario()
    let events = try scenario.at(0, .select(field: "home"), .commit)
    #expect(
      events == [.editingBegan(field: "home"), .editingEnded(field: "home", committed: true)])
    #expect(scenario.board.undoHistory.isEmpty)
  }

  @Test func undoWhileEditingCancelsTheEdit() throws {
    var scenario = Scenario()
    try scenario.at(0, .set(field: "home", value: "5"), .digit(7), .undo)
    #expect(scenario.board.session == nil)
    #expect(scenario.value("home") == "5")
  }
}
