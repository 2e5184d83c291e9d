import ScoreboardCore
import Testing

@testable import ScoreboardDaemon

/// How the key events of one read are stepped: a press is shown before what was read
/// with it is stepped.
@Suite struct KeyStepTests {
  static func event(_ kind: KeyEvent.Kind, _ name: String = "KEY_KPPLUS") -> KeyEvent {
    KeyEvent(keypad: "numpad", key: Key(name)!, kind: kind, time: Instant(nanoseconds: 0))
  }

  @Test(arguments: [
    // A press alone, or a release alone: one step.
    ([KeyEvent.Kind.press], 1),
    ([.release], 1),
    // A press read with its release: the press first.
    ([.press, .release], 1),
    // A release, then a press and its release: up to the press.
    ([.release, .press, .release], 2),
    // Keys in a burst: the first press, then the rest together.
    ([.press, .release, .press, .release, .press], 1),
    // Autorepeats without a press: one step.
    ([.autorepeat, .autorepeat, .release], 3),
  ])
  func theFirstStepEndsWithTheFirstPress(kinds: [KeyEvent.Kind], firstStep: Int) {
    #expect(Devices.firstStep(of: kinds.map { Self.event($0) }) == firstStep)
  }

}
