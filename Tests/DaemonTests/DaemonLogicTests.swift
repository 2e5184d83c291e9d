import ScoreboardCore
import Testing

@testable import ScoreboardLogic

/// Scenarios of the daemon's logic with explicit times: key events and requests in, what
/// happened, the answers and the deadlines out.
@Suite struct DaemonLogicTests {
  static func spec() -> ScoreboardSpec {
    ScoreboardSpec(
      fields: [
        FieldSpec(
          name: "home", label: "HOME", display: "main", position: 0, width: 2,
          kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
        FieldSpec(
          name: "away", label: "AWAY", display: "main", position: 3, width: 2,
          kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
      ],
      displays: [DisplayLayout(name: "main", cellCount: 5)], editTimeout: .seconds(10))
  }

  static let keymap = Keymap(
    name: "numpad",
    bindings: [
      Key("KEY_KP1")!: .digit(1), Key("KEY_KP2")!: .digit(2), Key("KEY_KPENTER")!: .commit,
      Key("KEY_KPPLUS")!: .add(field: "home", amount: 1),
      Key("KEY_F1")!: .set(field: "visitors", value: "3"),
    ])

  static func logic() -> DaemonLogic {
    DaemonLogic(board: Scoreboard(spec: spec()), keymaps: [("numpad", keymap)])
  }

  static func press(_ key: String, at milliseconds: Int64) -> KeyEvent {
    KeyEvent(keypad: "numpad", key: Key(key)!, kind: .press, time: .milliseconds(milliseconds))
  }

  @Test func aKeyTakesEffectAtItsKernelTimestamp() {
    var logic = Self.logic()
    // Pressed at 100 ms, read by the daemon at 150 ms.
    let reaction = logic.step(.keys([Self.press("KEY_KP1", at: 100)]), at: .milliseconds(150))
    #expect(logic.board.session?.lastActivity == .milliseconds(100))
    // The edit times out 10 s after the press, not after the read.
    #expect(logic.board.nextDeadline(after: .milliseconds(10_000)) == .milliseconds(10_100))
    #expect(
      reaction.events.map(\.event) == [
        .editingBegan(field: "home"), .editingChanged(field: "home", text: "10"),
      ])
    #expect(!reaction.changesState)
  }

  @Test func aReactionLentToEveryStepCarriesNothingOfTheStepsBefore() {
    var logic = Self.logic()
    var reaction = DaemonLogic.Reaction()
    logic.step(
      .keys([
        Self.press("KEY_KPPLUS", at: 100), Self.press("KEY_F1", at: 110),
        Self.press("KEY_KP1", at: 120),
      ]), at: .milliseconds(150), into: &reaction)
    #expect(reaction.events.count == 3)
    #expect(reaction.refusals.count == 1)
    #expect(reaction.keyNotes.count == 3)
    #expect(reaction.clicks.count == 3)
    #expect(reaction.changesState)

    logic.step(.request(.get(field: "home"), client: "c"), at: .milliseconds(200), into: &reaction)
    #expect(reaction.answer == .ok("1"))
    #expect(reaction.events.isEmpty)
    #expect(reaction.refusals.isEmpty)
    #expect(reaction.keyNotes.isEmpty)
    #expect(reaction.clicks.isEmpty)
    #expect(!reaction.changesState)
    #expect(reaction.mayHaveChangedBoard)

    let release = KeyEvent(
      keypad: "numpad", key: Key("KEY_KP1")!, kind: .release, time: .milliseconds(300))
    logic.step(.keys([release]), at: .milliseconds(300), into: &reaction)
    #expect(reaction.answer == nil)
    #expect(!reaction.mayHaveChangedBoard)
    #expect(reaction.nextDeadline != nil, "the cursor blinks")

    logic.step(.deadline, at: .milliseconds(10_200), into: &reaction)
    #expect(reaction.events.map(\.event) == [.editingEnded(field: "home", committed: false)])
    #expect(reaction.nextDeadline == nil)
  }

  @Test func aStepsReactionCarriesNothingOfTheStepsBefore() {
    var logic = Self.logic()
    let keys = logic.step(
      .keys([
        Self.press("KEY_KPPLUS", at: 100), Self.press("KEY_F1", at: 110),
        Self.press("KEY_KP1", at: 120),
      ]), at: .milliseconds(150))
    #expect(keys.events.count == 3)
    #expect(keys.refusals.count == 1)
    #expect(keys.keyNotes.count == 3)
    #expect(keys.clicks.count == 3)
    #expect(keys.changesState)
    #expect(keys.nextDeadline != nil)

    let request = logic.step(.request(.get(field: "home"), client: "c"), at: .milliseconds(200))
    #expect(request.answer == .ok("1"))
    #expect(request.events.isEmpty)
    #expect(request.refusals.isEmpty)
    #expect(request.keyNotes.isEmpty)
    #expect(request.clicks.isEmpty)
    #expect(!request.changesState)
    #expect(keys.events.count == 3, "a reaction still held is left as it was")
    #expect(keys.clicks.count == 3)

    let cancel = logic.step(.deadline, at: .milliseconds(10_200))
    #expect(cancel.answer == nil)
    #expect(cancel.events.map(\.event) == [.editingEnded(field: "home", committed: false)])
    #expect(cancel.nextDeadline == nil)
  }

  /// Whether a step may have changed the board, for the daemon to draw the frames again
  /// or not: keys that did nothing (a release of a key bound to its press, a key not
  /// mapped) leave it as it was.
  @Test func aStepSaysWhetherItMayHaveChangedTheBoard() {
    var logic = Self.logic()
    let plus = Self.press("KEY_KPPLUS", at: 100)
    #expect(logic.step(.keys([plus]), at: .milliseconds(110)).mayHaveChangedBoard)
    var release = plus
    release.kind = .release
    release.time = .milliseconds(120)
    #expect(!logic.step(.keys([release]), at: .milliseconds(130)).mayHaveChangedBoard)
    let unmapped = Self.press("KEY_F9", at: 140)
    #expect(!logic.step(.keys([unmapped]), at: .milliseconds(150)).mayHaveChangedBoard)
    #expect(
      logic.step(.keys([release, plus]), at: .milliseconds(160)).mayHaveChangedBoard,
      "one key of the step did something")
    #expect(
      logic.step(.keys([Self.press("KEY_F1", at: 170)]), at: .milliseconds(180))
        .mayHaveChangedBoard, "refused, but performed")
    #expect(logic.step(.deadline, at: .milliseconds(190)).mayHaveChangedBoard)
    #expect(
      logic.step(.request(.get(field: "home"), client: "c"), at: .milliseconds(200))
        .mayHaveChangedBoard)
  }

  @Test func theModelsTimeNeverGoesBack() {
    var logic = Self.logic()
    _ = logic.step(.request(.get(field: "home"), client: "c"), at: .milliseconds(500))
    // A key stamped before the request that came first takes the request's time.
    _ = logic.step(.keys([Self.press("KEY_KP1", at: 200)]), at: .milliseconds(600))
    #expect(logic.board.session?.lastActivity == .milliseconds(500))
    #expect(logic.time == .milliseconds(500))
  }

  @Test func aKeyStampedInTheFutureTakesTheTimeOfTheStep() {
    var logic = Self.logic()
    _ = logic.step(.keys([Self.press("KEY_KP1", at: 99_000)]), at: .milliseconds(1_000))
    #expect(logic.board.session?.lastActivity == .milliseconds(1_000))
  }

  @Test func aCommitChangesTheStateToSave() {
    var logic = Self.logic()
    let keys = [
      Self.press("KEY_KP1", at: 10), Self.press("KEY_KP2", at: 20),
      Self.press("KEY_KPENTER", at: 30),
    ]
    let reaction = logic.step(.keys(keys[...]), at: .milliseconds(40))
    #expect(reaction.changesState)
    #expect(logic.board.text(of: "home") == "12")
    #expect(logic.savedState.values["home"] == "12")
    #expect(reaction.events.contains { $0.event == .valueChanged(field: "home", from: 0, to: 12) })
    #expect(reaction.events.allSatisfy { $0.source == "keypad numpad" })
  }

  @Test(arguments: [
    (ControlRequest.set(field: "home", value: "7"), ControlResponse.ok("home 7"), true),
    (.add(field: "away", amount: 3), .ok("away 3"), true),
    (.get(field: "home"), .ok("0"), false),
    (.press(key: Key("KEY_KPPLUS")!, keypad: nil), .ok("add home +1"), true),
    (.press(key: Key("KEY_KPPLUS")!, keypad: "numpad"), .ok("add home +1"), true),
    (
      .press(key: Key("KEY_KP9")!, keypad: nil), .error("KEY_KP9 is not mapped on keypad numpad"),
      false
    ),
    (.press(key: Key("KEY_KP1")!, keypad: "other"), .error("no keypad named 'other'"), false),
    (
      .set(field: "visitors", value: "3"), .error("no field named 'visitors' (fields: home, away)"),
      false
    ),
    (
      .set(field: "home", value: "120"),
      .error("'120' is not a value of home: expected a number from 0 to 99"), false
    ),
    (.brightness(.to(3)), .ok("brightness 3"), true),
    (.blank(true), .ok("blank on"), true),
    (.undo, .ok(""), false),
    (.reset, .ok(""), false),
  ])
  func requestsAreAnswered(request: ControlRequest, answer: ControlResponse, changes: Bool) {
    var logic = Self.logic()
    let reaction = logic.step(.request(request, client: "control client 1"), at: .milliseconds(5))
    #expect(reaction.answer == answer)
    #expect(reaction.changesState == changes)
  }

  @Test func refusalsAreReportedForTheLog() {
    var logic = Self.logic()
    let reaction = logic.step(.keys([Self.press("KEY_F1", at: 1)]), at: .milliseconds(2))
    #expect(
      reaction.refusals == [
        "keypad numpad: set visitors 3: no field named 'visitors' (fields: home, away)"
      ])
    let unmapped = logic.step(.keys([Self.press("KEY_F2", at: 3)]), at: .milliseconds(4))
    #expect(unmapped.keyNotes.map(\.description) == ["keypad numpad: KEY_F2 is not mapped"])
  }

  @Test func deadlinesExpireAnEdit() {
    var logic = Self.logic()
    let typed = logic.step(.keys([Self.press("KEY_KP1", at: 0)]), at: .milliseconds(1))
    let deadline = typed.nextDeadline
    #expect(deadline == .milliseconds(500), "the cursor blinks first")
    var now = Instant.zero
    var ended = false
    while let next = logic.board.nextDeadline(after: now), !ended {
      now = next
      ended = logic.step(.deadline, at: now).events.contains {
        $0.event == .editingEnded(field: "home", committed: false)
      }
    }
    #expect(now == .milliseconds(10_000))
  }

  @Test func reconfiguringCarriesTheValuesOver() {
    var logic = Self.logic()
    _ = logic.step(.request(.set(field: "home", value: "9"), client: "c"), at: .zero)
    _ = logic.step(.request(.set(field: "away", value: "4"), client: "c"), at: .zero)
    var spec = Self.spec()
    spec.fields.removeLast()
    let dropped = logic.reconfigure(spec, keymaps: [])
    #expect(dropped == ["away"])
    #expect(logic.board.text(of: "home") == "9")
    #expect(logic.keymaps.isEmpty)
  }

  @Test func afterReconfiguringKeysComeFromTheirNewKeypads() {
    var logic = Self.logic()
    _ = logic.reconfigure(
      Self.spec(), keymaps: [("buttons", Self.keymap), ("numpad", Self.keymap)])
    for keypad in ["numpad", "buttons"] {
      let key = KeyEvent(
        keypad: keypad, key: Key("KEY_KPPLUS")!, kind: .press, time: .milliseconds(10))
      let reaction = logic.step(.keys([key]), at: .milliseconds(20))
      #expect(!reaction.events.isEmpty)
      #expect(reaction.events.allSatisfy { $0.source == "keypad \(keypad)" })
    }
    let unknown = KeyEvent(
      keypad: "pad", key: Key("KEY_KPPLUS")!, kind: .press, time: .milliseconds(30))
    #expect(logic.step(.keys([unknown]), at: .milliseconds(40)).events.isEmpty)
    #expect(logic.board.text(of: "home") == "2")
  }
}
