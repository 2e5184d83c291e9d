import ScoreboardCore
import Testing

@testable import ScoreboardLogic

/// Releases: most do nothing, and the loop takes no step for them; a held horn's acts.
extension DaemonLogicTests {
  /// A board with a horn and a keymap that holds it on `KEY_H`, with keys of other kinds.
  static func hornKeyLogic() -> DaemonLogic {
    var spec = spec()
    spec.horns = [HornSpec(name: "main", clocks: [], duration: .seconds(1))]
    let keymap = Keymap(
      name: "numpad",
      bindings: [
        Key("KEY_H")!: .horn("main"), Key("KEY_KPPLUS")!: .add(field: "home", amount: 1),
        Key("KEY_KP1")!: .digit(1),
      ])
    return DaemonLogic(board: Scoreboard(spec: spec), keymaps: [("numpad", keymap)])
  }

  @Test(arguments: [
    ("numpad", "KEY_H", true), ("numpad", "KEY_KPPLUS", false), ("numpad", "KEY_KP1", false),
    ("numpad", "KEY_F9", false), ("other", "KEY_H", false),
  ])
  func aReleaseActsOnlyWhenItsKeyHoldsAHorn(keypad: String, key: String, acts: Bool) {
    var logic = Self.hornKeyLogic()
    let press = KeyEvent(keypad: keypad, key: Key(key)!, kind: .press, time: .milliseconds(100))
    let pressActs = logic.acts(on: press)
    #expect(pressActs)
    _ = logic.step(.keys([press]), at: .milliseconds(110))
    var release = press
    release.kind = .release
    release.time = .milliseconds(200)
    let releaseActs = logic.acts(on: release)
    #expect(releaseActs == acts)
    let board = logic.board
    let reaction = logic.step(.keys([release]), at: .milliseconds(210))
    // What the loop skips must be a step that does nothing.
    if !acts {
      #expect(!reaction.mayHaveChangedBoard)
      #expect(reaction.events.isEmpty && reaction.keyNotes.isEmpty && reaction.clicks.isEmpty)
      #expect(logic.board.values == board.values && logic.board.horns == board.horns)
      #expect(logic.board.session?.entry == board.session?.entry)
    } else {
      #expect(reaction.events.map(\.event) == [.hornChanged(horn: "main", sounding: false)])
    }
  }
}
