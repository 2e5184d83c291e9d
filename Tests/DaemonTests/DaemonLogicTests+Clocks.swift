import ScoreboardCore
import Testing

@testable import ScoreboardLogic

/// The daemon's logic with a game clock: restoring a running clock in the same boot and
/// after a reboot, and the key clicks of a start-stop key and of a refused digit.
extension DaemonLogicTests {
  static func clockSpec() -> ScoreboardSpec {
    ScoreboardSpec(
      fields: [
        FieldSpec(
          name: "game", label: "GAME", display: "main", position: 0, width: 4,
          kind: .clock(ClockFormat(role: .game, length: .seconds(600))), defaultValue: 0),
        FieldSpec(
          name: "home", label: "HOME", display: "main", position: 4, width: 2,
          kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
      ],
      displays: [DisplayLayout(name: "main", cellCount: 6)], editTimeout: .seconds(10))
  }

  static let clockKeymap = Keymap(
    name: "buttons",
    bindings: [Key("BTN_0")!: .startStop(clock: nil), Key("KEY_KP1")!: .digit(1)])

  static func clockLogic(bootID: String?) -> DaemonLogic {
    var logic = DaemonLogic(
      board: Scoreboard(spec: clockSpec()), keymaps: [("buttons", clockKeymap)])
    logic.bootID = bootID
    return logic
  }

  /// A state file with the game clock started at 10:00 at 2 s on the monotonic clock of
  /// boot `boot-a`.
  static let savedRunning = SavedState(
    values: ["home": "3"],
    clocks: ["game": ClockState(time: .seconds(600), startedAt: .seconds(2))], bootID: "boot-a")

  @Test func aClockRunningInTheSameBootRunsOn() {
    var logic = Self.clockLogic(bootID: "boot-a")
    let restored = logic.restore(Self.savedRunning)
    #expect(restored.dropped.isEmpty)
    #expect(restored.stoppedClocks.isEmpty)
    #expect(logic.board.clocks[0]?.isRunning == true)
    #expect(logic.board.clocks[0]?.startedAt == .seconds(2))
    // 5.5 s after its start, as if the daemon had never stopped.
    #expect(logic.board.text(of: "game", at: .milliseconds(7_500)) == "9:54.5")
    #expect(logic.board.text(of: "home") == "3")
    #expect(logic.savedState.bootID == "boot-a")
    #expect(logic.savedState.clocks["game"]?.startedAt == .seconds(2))
  }

  @Test(arguments: ["boot-b", nil] as [String?])
  func aClockRunningInAnotherBootIsStoppedWhereItWasStarted(bootID: String?) {
    var logic = Self.clockLogic(bootID: bootID)
    let restored = logic.restore(Self.savedRunning)
    #expect(restored.dropped.isEmpty)
    #expect(restored.stoppedClocks == ["game"])
    #expect(logic.board.clocks[0] == ClockState(time: .seconds(600)))
    #expect(logic.board.text(of: "game", at: .seconds(30)) == "10:00.0")
    #expect(logic.board.text(of: "home") == "3")
    #expect(logic.savedState.bootID == bootID)
  }

  @Test func aStoppedClockIsRestoredWhateverTheBoot() {
    var logic = Self.clockLogic(bootID: "boot-b")
    var saved = Self.savedRunning
    saved.clocks["game"] = ClockState(time: .milliseconds(65_400))
    let restored = logic.restore(saved)
    #expect(restored.stoppedClocks.isEmpty)
    #expect(logic.board.text(of: "game", at: .seconds(30)) == "1:05.4")
  }

  @Test func aStartStopKeyClicksAndADigitOnTheRunningClockIsRefused() {
    var logic = Self.clockLogic(bootID: "boot-a")
    let start = logic.step(
      .keys([
        KeyEvent(keypad: "buttons", key: Key("BTN_0")!, kind: .press, time: .milliseconds(100))
      ]), at: .milliseconds(120))
    #expect(start.events.map(\.event) == [.clockStarted(field: "game", time: .seconds(600))])
    #expect(start.clicks.map(\.refused) == [false])
    #expect(start.clicks.map(\.time) == [.milliseconds(100)], "at the key's kernel timestamp")
    #expect(start.changesState)
    #expect(logic.board.clocks[0]?.startedAt == .milliseconds(100))

    let digit = logic.step(
      .keys([
        KeyEvent(keypad: "buttons", key: Key("KEY_KP1")!, kind: .press, time: .milliseconds(900))
      ]), at: .milliseconds(910))
    #expect(digit.events.map(\.event) == [.refused(field: "game")])
    #expect(digit.clicks.map(\.refused) == [true])
    #expect(digit.clicks.map(\.time) == [.milliseconds(900)])
    #expect(!digit.changesState)
    #expect(logic.board.clocks[0]?.isRunning == true, "the digit did not stop it")

    let stop = logic.step(
      .keys([
        KeyEvent(keypad: "buttons", key: Key("BTN_0")!, kind: .press, time: .milliseconds(1_600))
      ]), at: .milliseconds(1_650))
    #expect(
      stop.events.map(\.event) == [.clockStopped(field: "game", time: .milliseconds(598_500))])
    #expect(stop.clicks.map(\.refused) == [false])
    #expect(logic.board.text(of: "game", at: .seconds(5)) == "9:58.5")
  }

  @Test func anUnmappedKeyDoesNotClick() {
    var logic = Self.clockLogic(bootID: "boot-a")
    let reaction = logic.step(
      .keys([KeyEvent(keypad: "buttons", key: Key("KEY_F9")!, kind: .press, time: .zero)]),
      at: .milliseconds(1))
    #expect(reaction.clicks.isEmpty)
  }
}
