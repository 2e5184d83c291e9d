import ScoreboardCore
import Testing

@testable import ScoreboardLogic

/// Keys take effect at their stamps even when frames were drawn after them, and what
/// time passing did before a refused action is reported all the same.
extension DaemonLogicTests {
  /// A two-minute game clock and a horn that sounds at its zero.
  static func hornClockLogic(running time: Duration, since start: Instant) -> DaemonLogic {
    var spec = clockSpec()
    spec.fields[0].kind = .clock(ClockFormat(role: .game, length: .seconds(120)))
    spec.horns = [HornSpec(name: "main", clocks: ["game"], duration: .seconds(1))]
    var logic = DaemonLogic(board: Scoreboard(spec: spec), keymaps: [("buttons", clockKeymap)])
    logic.bootID = "boot-a"
    _ = logic.restore(
      SavedState(clocks: ["game": ClockState(time: time, startedAt: start)], bootID: "boot-a"))
    return logic
  }

  static func startStop(at stamp: Instant) -> DaemonLogic.Input {
    .keys([KeyEvent(keypad: "buttons", key: Key("BTN_0"), kind: .press, time: stamp)])
  }

  @Test func aStopKeyReadAfterAFrameStopsTheClockAtItsStamp() {
    // 2:00 started at 10 s: at 67.990 s, 62.010 s are left.
    var logic = Self.hornClockLogic(running: .seconds(120), since: .seconds(10))
    let stamp = Instant.milliseconds(67_990)
    // A frame is drawn 16 ms after the key, before the key is read (at 37 ms).
    let frame = logic.step(.deadline, at: stamp + .milliseconds(16))
    #expect(frame.events.isEmpty)
    let stop = logic.step(Self.startStop(at: stamp), at: stamp + .milliseconds(37))
    #expect(stop.events.map(\.event) == [.clockStopped(field: "game", time: .milliseconds(62_010))])
    #expect(logic.board.clocks[0] == ClockState(time: .milliseconds(62_010)))
    #expect(logic.savedState.clocks["game"] == ClockState(time: .milliseconds(62_010)))
  }

  @Test func aStartKeyReadAfterAFrameStartsTheClockAtItsStamp() {
    var logic = Self.hornClockLogic(running: .seconds(120), since: .seconds(10))
    _ = logic.step(Self.startStop(at: .seconds(20)), at: .seconds(20))
    #expect(logic.board.clocks[0] == ClockState(time: .seconds(110)))
    _ = logic.step(.deadline, at: .milliseconds(30_020))
    let start = logic.step(Self.startStop(at: .seconds(30)), at: .milliseconds(30_040))
    #expect(start.events.map(\.event) == [.clockStarted(field: "game", time: .seconds(110))])
    #expect(logic.board.clocks[0]?.startedAt == .seconds(30))
  }

  @Test func aKeyStampedBeforeAReportedZeroTakesTheTimeOfThatStep() {
    // 2 s left at 0 s: the clock runs out at 2 s, and the step at 2.001 s reports it.
    var logic = Self.hornClockLogic(running: .seconds(2), since: .zero)
    let zero = logic.step(.deadline, at: .milliseconds(2_001))
    #expect(zero.events.map(\.event).contains(.clockRanOut(field: "game")))
    #expect(zero.events.map(\.event).contains(.hornChanged(horn: "main", sounding: true)))
    // A key stamped before it cannot undo what was already reported: it acts after it.
    let late = logic.step(Self.startStop(at: .milliseconds(1_990)), at: .milliseconds(2_010))
    #expect(
      !late.events.map(\.event).contains(.clockStopped(field: "game", time: .milliseconds(10))))
    #expect(logic.time >= .milliseconds(2_001))
    #expect(logic.board.clocks[0]?.time == .zero)
  }

  @Test func whatTimeDidBeforeARefusedKeyIsReported() {
    // The clock runs out at 2.000 s; start-stop at 2.003 s, read at once, is refused
    // (nothing is left to run), but the zero and the horn happened.
    var logic = Self.hornClockLogic(running: .seconds(2), since: .zero)
    let step = logic.step(Self.startStop(at: .milliseconds(2_003)), at: .milliseconds(2_004))
    let events = step.events.map(\.event)
    #expect(events.contains(.clockRanOut(field: "game")))
    #expect(events.contains(.hornChanged(horn: "main", sounding: true)))
    #expect(step.changesState)
    #expect(logic.savedState.clocks["game"] == ClockState(time: .zero))
  }

  @Test func whatTimeDidBeforeARefusedRequestIsReported() throws {
    var logic = Self.hornClockLogic(running: .seconds(2), since: .zero)
    let step = logic.step(
      .request(try ControlRequest(parsing: "start"), client: "control client 1"),
      at: .milliseconds(2_003))
    let events = step.events.map(\.event)
    #expect(events.contains(.clockRanOut(field: "game")))
    #expect(events.contains(.hornChanged(horn: "main", sounding: true)))
    #expect(step.changesState)
    // Those events are time's, not the client's.
    #expect(step.events.first { $0.event == .clockRanOut(field: "game") }?.source == nil)
  }
}

extension DaemonLogicTests {
  /// A board with a horn and a keymap that holds it on `KEY_H`, with keys of other kinds.
  static func hornKeyLogic() -> DaemonLogic {
    var spec = spec()
    spec.horns = [HornSpec(name: "main", clocks: [], duration: .seconds(1))]
    let keymap = Keymap(
      name: "numpad",
      bindings: [
        Key("KEY_H"): .horn("main"), Key("KEY_KPPLUS"): .add(field: "home", amount: 1),
        Key("KEY_KP1"): .digit(1),
      ])
    return DaemonLogic(board: Scoreboard(spec: spec), keymaps: [("numpad", keymap)])
  }

  @Test(arguments: [
    ("numpad", "KEY_H", true), ("numpad", "KEY_KPPLUS", false), ("numpad", "KEY_KP1", false),
    ("numpad", "KEY_F9", false), ("other", "KEY_H", false),
  ])
  func aReleaseActsOnlyWhenItsKeyHoldsAHorn(keypad: String, key: String, acts: Bool) {
    var logic = Self.hornKeyLogic()
    let press = KeyEvent(keypad: keypad, key: Key(key), kind: .press, time: .milliseconds(100))
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
