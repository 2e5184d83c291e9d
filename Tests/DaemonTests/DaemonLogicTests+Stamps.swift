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
    .keys([KeyEvent(keypad: "buttons", key: Key("BTN_0")!, kind: .press, time: stamp)])
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
