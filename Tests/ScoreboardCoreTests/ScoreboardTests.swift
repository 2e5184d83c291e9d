import ScoreboardCore
import Testing

@Suite struct DirectActionTests {
  @Test func addIsClampedToTheLimits() throws {
    var scenario = Scenario()
    let events = try scenario.at(
      0, .add(field: "home", amount: -1), .add(field: "home", amount: 120))
    #expect(events == [.valueChanged(field: "home", from: 0, to: 99)])
  }

  @Test func addWithoutAFieldActsOnTheFocusedField() throws {
    var scenario = Scenario()
    try scenario.at(0, .add(field: nil, amount: 3))
    #expect(scenario.value("home") == "3")
  }

  @Test func aDirectActionDropsAnUnfinishedEntryOfItsField() throws {
    var scenario = Scenario()
    let events = try scenario.at(0, .digit(9), .add(field: "home", amount: 1))
    #expect(
      events.suffix(2) == [
        .editingEnded(field: "home", committed: false),
        .valueChanged(field: "home", from: 0, to: 1),
      ])
  }

  @Test func setAcceptsNumbersAndListValues() throws {
    var scenario = Scenario()
    try scenario.at(0, .set(field: "home", value: "42"), .set(field: "period", value: "ot"))
    #expect(scenario.value("home") == "42")
    #expect(scenario.value("period") == "OT")
    #expect(scenario.shows(at: 0) == "42 000t", "OT reads as 0t on seven segments")
  }

  @Test(arguments: [
    (
      Action.set(field: "home", value: "100"),
      "'100' is not a value of home: expected a number from 0 to 99"
    ),
    (.set(field: "home", value: "x"), "'x' is not a value of home: expected a number from 0 to 99"),
    (.set(field: "period", value: "5"), "'5' is not a value of period: expected one of 1 2 3 4 OT"),
    (.add(field: "guest", amount: 1), "no field named 'guest' (fields: home, away, period)"),
    (.select(field: "clock"), "no field named 'clock' (fields: home, away, period)"),
  ])
  func invalidRequestsThrowAndChangeNothing(action: Action, message: String) {
    var scenario = Scenario()
    #expect {
      try scenario.at(0, action)
    } throws: { error in
      (error as? ScoreboardError)?.description == message
    }
    #expect(scenario.shows(at: 0) == " 0 00 1")
  }

  @Test func valueChangedFiresOnlyOnCommitOrDirectActions() throws {
    var scenario = Scenario(
      Fixtures.spec(home: Fixtures.number("home", position: 0, commitOnLastDigit: false)))
    let typing = try scenario.at(0, .digit(1), .digit(2), .backspace, .digit(3))
    #expect(!typing.contains { if case .valueChanged = $0 { true } else { false } })
    let commit = try scenario.at(10, .commit)
    #expect(commit.contains(.valueChanged(field: "home", from: 0, to: 32)))
  }
}

@Suite struct ListFieldTests {
  @Test func upAndDownWrapAround() throws {
    var scenario = Scenario()
    try scenario.at(0, .add(field: "period", amount: -1))
    #expect(scenario.value("period") == "OT")
    try scenario.at(10, .add(field: "period", amount: 1))
    #expect(scenario.value("period") == "1")
    try scenario.at(20, .add(field: "period", amount: 7))
    #expect(scenario.value("period") == "3")
  }

  @Test func editingAListFieldStepsThenCommits() throws {
    var scenario = Scenario()
    try scenario.at(0, .select(field: "period"), .add(field: nil, amount: -1))
    #expect(scenario.value("period") == "1")
    #expect(scenario.shows(at: 0) == " 0 000t")
    #expect(scenario.shows(at: 500) == " 0 00  ", "the whole list field blinks")
    try scenario.at(600, .commit)
    #expect(scenario.value("period") == "OT")
  }

  @Test func digitsAreRefusedOnAListField() throws {
    var scenario = Scenario()
    let events = try scenario.at(0, .select(field: "period"), .digit(2))
    #expect(events.last == .refused(field: "period"))
  }
}

@Suite struct UndoTests {
  @Test func undoRevertsChangesAcrossFieldsInReverseOrder() throws {
    var scenario = Scenario()
    try scenario.at(0, .set(field: "home", value: "3"))
    try scenario.at(10, .select(field: "away"), .digit(4), .commit)
    try scenario.at(20, .add(field: "period", amount: 1), .add(field: "home", amount: 1))
    #expect(scenario.shows(at: 30) == " 4 04 2")
    let first = try scenario.at(30, .undo)
    #expect(first == [.valueChanged(field: "home", from: 4, to: 3)])
    try scenario.at(40, .undo, .undo)
    #expect(scenario.shows(at: 40) == " 3 00 1")
    try scenario.at(50, .undo, .undo)
    #expect(scenario.shows(at: 50) == " 0 00 1", "undo with an empty history does nothing")
  }

  @Test func undoKeepsTheLast32Changes() throws {
    var scenario = Scenario()
    for step in 1...40 {
      try scenario.at(Int64(step), .set(field: "home", value: String(step)))
    }
    for _ in 1...40 {
      try scenario.at(100, .undo)
    }
    #expect(scenario.value("home") == "8")
  }
}

@Suite struct ResetTests {
  @Test func resetNeedsASecondPressInTime() throws {
    var scenario = Scenario()
    try scenario.at(0, .set(field: "home", value: "12"), .set(field: "away", value: "7"))
    #expect(try scenario.at(1_000, .reset) == [.resetArmed])
    #expect(scenario.board.nextDeadline(after: .milliseconds(1_000)) == .milliseconds(1_500))
    #expect(scenario.shows(at: 1_600) == "       ", "an armed reset blinks the whole board")
    scenario.advance(to: 3_000)
    #expect(scenario.board.resetArmedAt == nil, "the window closed")
    #expect(try scenario.at(3_500, .reset) == [.resetArmed])
    let events = try scenario.at(5_400, .reset)
    #expect(
      events == [
        .valueChanged(field: "home", from: 12, to: 0), .valueChanged(field: "away", from: 7, to: 0),
      ])
    try scenario.at(6_000, .undo)
    #expect(scenario.shows(at: 6_000) == "12 07 1", "undo reverts a whole reset")
  }

  @Test func anotherKeyDisarmsTheReset() throws {
    var scenario = Scenario()
    try scenario.at(0, .set(field: "home", value: "12"), .reset, .brightness(.by(1)))
    #expect(try scenario.at(100, .reset) == [.resetArmed])
    #expect(scenario.value("home") == "12")
  }
}

@Suite struct BlinkTests {
  @Test func theCursorTogglesExactlyAtTheReportedDeadlines() throws {
    var scenario = Scenario()
    try scenario.at(100, .select(field: "home"))
    var now = Instant.milliseconds(100)
    var expectedLit = true
    for toggle in 1...6 {
      let deadline = try #require(scenario.board.nextDeadline(after: now))
      #expect(deadline == .milliseconds(100 + Int64(toggle) * 500))
      let before = Renderer.frames(of: scenario.board, at: deadline - .nanoseconds(1))[0]
      let after = Renderer.frames(of: scenario.board, at: deadline)[0]
      #expect(before.cells[0] == (expectedLit ? .d : .blank))
      #expect(after.cells[0] == (expectedLit ? .blank : .d))
      #expect(before.cells[1] == after.cells[1], "only the cursor cell blinks")
      expectedLit.toggle()
      now = deadline
    }
  }

  @Test func aKeyRestartsTheBlinkLit() throws {
    var scenario = Scenario(
      Fixtures.spec(home: Fixtures.number("home", position: 0, commitOnLastDigit: false)))
    try scenario.at(0, .digit(1))
    #expect(scenario.shows(at: 700).hasPrefix("1 "), "dark half: cursor cell 1 off")
    try scenario.at(700, .digit(2))
    #expect(scenario.shows(at: 700).hasPrefix("12"))
    #expect(scenario.board.nextDeadline(after: .milliseconds(700)) == .milliseconds(1_200))
  }

  @Test func theDecimalPointCursorBlinksTheDecimalPoint() throws {
    var scenario = Scenario(Fixtures.spec(cursor: .dp))
    try scenario.at(0, .select(field: "home"))
    let lit = Renderer.frames(of: scenario.board, at: .milliseconds(0))[0]
    let dark = Renderer.frames(of: scenario.board, at: .milliseconds(500))[0]
    #expect(lit.cells[0] == .dp)
    #expect(dark.cells[0] == .blank)
    #expect(lit.text == " .0 00 1")
  }

  @Test func noCursorMeansNoBlinkDeadline() throws {
    var scenario = Scenario(Fixtures.spec(cursor: .none, editTimeout: nil))
    try scenario.at(0, .select(field: "home"))
    #expect(scenario.board.nextDeadline(after: .zero) == nil)
  }

  @Test func anIdleBoardHasNoDeadline() {
    let scenario = Scenario()
    #expect(scenario.board.nextDeadline(after: .zero) == nil)
  }
}

@Suite struct BrightnessAndBlankTests {
  @Test func brightnessIsClampedAndReported() throws {
    var scenario = Scenario()
    #expect(try scenario.at(0, .brightness(.by(1))) == [.brightnessChanged(9)])
    #expect(try scenario.at(0, .brightness(.by(20))) == [.brightnessChanged(15)])
    #expect(try scenario.at(0, .brightness(.by(1))).isEmpty)
    #expect(try scenario.at(0, .brightness(.to(0))) == [.brightnessChanged(0)])
    #expect(try scenario.at(0, .brightness(.by(-1))).isEmpty)
    #expect(Renderer.frames(of: scenario.board, at: .zero)[0].brightness == 0)
  }

  @Test func blankTogglesTheFrame() throws {
    var scenario = Scenario()
    #expect(try scenario.at(0, .blank(.toggle)) == [.blankChanged(true)])
    #expect(Renderer.frames(of: scenario.board, at: .zero)[0].isBlank)
    #expect(try scenario.at(0, .blank(.on)).isEmpty)
    #expect(try scenario.at(0, .blank(.off)) == [.blankChanged(false)])
  }
}

@Suite struct RestoreTests {
  @Test func restoreTakesKnownFieldsAndReportsTheRest() {
    var board = Scoreboard(spec: Fixtures.spec())
    let ignored = board.restore(
      values: ["home": "17", "away": "250", "gone": "3", "period": "OT"], brightness: 20,
      isBlanked: true)
    #expect(ignored == ["away", "gone"])
    #expect(board.text(of: "home") == "17")
    #expect(board.text(of: "away") == "0")
    #expect(board.text(of: "period") == "OT")
    #expect(board.brightness == 15)
    #expect(board.isBlanked)
  }
}

/// Instants near the ends of the clock, as hostile timestamps make them.
@Suite struct InstantSaturationTests {
  @Test func sumsAndDifferencesSaturate() {
    let late = Instant(nanoseconds: .max - 5)
    let early = Instant(nanoseconds: .min + 5)
    #expect((late + .seconds(20)).nanoseconds == .max)
    #expect((early - .seconds(20)).nanoseconds == .min)
    #expect((early + .seconds(-20)).nanoseconds == .min)
    #expect((late - early).nanoseconds == .max)
    #expect((early - late).nanoseconds == .min)
    #expect(Duration.seconds(Int64.max).nanoseconds == .max)
    #expect(late.advanced(byNanoseconds: 20).nanoseconds == .max)
    #expect(early.advanced(byNanoseconds: -20).nanoseconds == .min)
    #expect(late.advanced(byNanoseconds: -5) == late - .nanoseconds(5))
    #expect(Instant.zero.advanced(byNanoseconds: 1_500) == .zero + .nanoseconds(1_500))
  }

  @Test func aBoardTakesKeysAtTheEndOfTheClock() throws {
    var board = Scoreboard(spec: Fixtures.spec())
    let time = Instant(nanoseconds: .max - 1)
    _ = try board.perform(.digit(3), at: time)
    #expect(board.session != nil)
    #expect(board.nextDeadline(after: time).map { $0 > time } ?? true)
    _ = board.advance(to: time)
    _ = try board.perform(.digit(4), at: time)
    #expect(board.text(of: "home") == "34")
    _ = board.advance(to: Instant(nanoseconds: .max))
  }
}
