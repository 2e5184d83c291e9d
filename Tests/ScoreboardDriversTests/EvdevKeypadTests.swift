@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import TestSupport
import Testing

/// The evdev keypad reading real `input_event` records from a FIFO: the code path of a
/// device, with the ioctls answered by a fake inspector.
@Suite struct EvdevKeypadTests {
  let folder: FakeInputFolder
  let inspector = FakeInputDeviceInspector()
  let log: LogCapture

  init() throws {
    folder = try FakeInputFolder()
    log = try LogCapture()
    try folder.plug("event3")
    inspector.names["event3"] = "SIGMACHIP USB Keyboard"
  }

  func keypad(ignoreNumLock: Bool = true, numLockLED: Bool? = nil) throws -> EvdevKeypad {
    try EvdevKeypad(
      name: "numpad", selector: .path("\(folder.path)/event3"), grab: false,
      ignoreNumLock: ignoreNumLock, numLockLED: numLockLED, inputDirectory: folder.path,
      inspector: inspector, logger: log.logger, at: .zero)
  }

  static func key(_ name: String, _ value: Int32, at milliseconds: Int64 = 0) -> [InputEvent] {
    FakeInputFolder.key(name, value, at: milliseconds)
  }

  static func described(_ events: [KeyEvent]) -> [String] {
    events.map { "\($0.kind) \($0.key)" }
  }

  @Test func pressAutorepeatAndReleaseCarryTheReadTimeWhenTheClockCannotBeSet() throws {
    let keypad = try keypad()
    try folder.send(
      Self.key("KEY_KP7", 1) + Self.key("KEY_KP7", 2) + Self.key("KEY_KP7", 0), to: "event3")
    let time = Instant.milliseconds(1_500)
    let events = try keypad.readEvents(count: 3, at: time)
    #expect(events.map(\.kind) == [.press, .autorepeat, .release])
    #expect(events.allSatisfy { $0.key == Key("KEY_KP7")! && $0.keypad == "numpad" })
    #expect(events.allSatisfy { $0.time == time })
    keypad.close()
    keypad.close()
  }

  @Test func eventsCarryTheKernelsTimestampsOnTheMonotonicClock() throws {
    inspector.acceptsMonotonicClock = true
    let keypad = try keypad()
    try folder.send(
      Self.key("KEY_KPENTER", 1, at: 5_000) + Self.key("KEY_KPENTER", 0, at: 5_120), to: "event3")
    let events = try keypad.readEvents(count: 2, at: .milliseconds(9_000))
    #expect(events.map(\.time) == [.milliseconds(5_000), .milliseconds(5_120)])
  }

  @Test func shiftMakesShiftedKeysUntilTheirRelease() throws {
    let keypad = try keypad()
    let shiftedTab: [InputEvent] =
      Self.key("KEY_LEFTSHIFT", 1) + Self.key("KEY_TAB", 1) + Self.key("KEY_LEFTSHIFT", 0)
    let heldTab: [InputEvent] =
      Self.key("KEY_TAB", 2) + Self.key("KEY_TAB", 0) + Self.key("KEY_TAB", 1)
    let shiftedH: [InputEvent] = Self.key("KEY_RIGHTSHIFT", 1) + Self.key("KEY_H", 1)
    try folder.send(shiftedTab + heldTab + shiftedH, to: "event3")
    let events = try keypad.readEvents(count: 8, at: .zero)
    #expect(
      Self.described(events) == [
        "press KEY_LEFTSHIFT", "press shift+KEY_TAB", "release KEY_LEFTSHIFT",
        "autorepeat shift+KEY_TAB", "release shift+KEY_TAB", "press KEY_TAB",
        "press KEY_RIGHTSHIFT", "press shift+KEY_H",
      ])
  }

  /// Keys held together are released, in any order, under the names their presses
  /// reported; a key pressed again while held is reported under its new name.
  /// A keymap may name a key by any of the kernel's names of its code: the keypad's
  /// event for code 152 finds a binding written `KEY_SCREENLOCK` (also `KEY_COFFEE`).
  @Test func aKeymapFindsAKeyByAnyOfItsNames() throws {
    let keypad = try keypad()
    try folder.send(Self.key("KEY_SCREENLOCK", 1) + Self.key("KEY_SCREENLOCK", 0), to: "event3")
    let events = try keypad.readEvents(count: 2, at: .zero)
    let keymap = Keymap(name: "numpad", bindings: [Key(parsing: "KEY_SCREENLOCK")!: .undo])
    #expect(events.map(\.key.code) == [KeyCode(rawValue: 152), KeyCode(rawValue: 152)])
    #expect(keymap.action(for: events[0]) == .undo)
  }

  @Test func keysHeldTogetherAreReleasedUnderTheirPressedNames() throws {
    let keypad = try keypad()
    let held: [InputEvent] =
      Self.key("KEY_KP1", 1) + Self.key("KEY_LEFTSHIFT", 1) + Self.key("KEY_KP2", 1)
      + Self.key("KEY_KP1", 0) + Self.key("KEY_LEFTSHIFT", 0) + Self.key("KEY_KP2", 2)
      + Self.key("KEY_KP3", 1) + Self.key("KEY_KP3", 1) + Self.key("KEY_KP2", 0)
      + Self.key("KEY_KP3", 0) + Self.key("KEY_KP4", 0)
    try folder.send(held, to: "event3")
    let events = try keypad.readEvents(count: 11, at: .zero)
    #expect(
      Self.described(events) == [
        "press KEY_KP1", "press KEY_LEFTSHIFT", "press shift+KEY_KP2", "release KEY_KP1",
        "release KEY_LEFTSHIFT", "autorepeat shift+KEY_KP2", "press KEY_KP3", "press KEY_KP3",
        "release shift+KEY_KP2", "release KEY_KP3", "release KEY_KP4",
      ])
  }

  @Test(arguments: [true, false])
  func numLockWrappingIsIgnored(ignoreNumLock: Bool) throws {
    let keypad = try keypad(ignoreNumLock: ignoreNumLock)
    // A numpad whose own NumLock state disagrees with the host wraps each key.
    let wrapped =
      Self.key("KEY_NUMLOCK", 1) + Self.key("KEY_NUMLOCK", 0) + Self.key("KEY_KP1", 1)
      + Self.key("KEY_KP1", 0) + Self.key("KEY_NUMLOCK", 1) + Self.key("KEY_NUMLOCK", 0)
    try folder.send(wrapped + Self.key("KEY_ESC", 1), to: "event3")
    let events = try keypad.readEvents(count: ignoreNumLock ? 3 : 7, at: .zero)
    if ignoreNumLock {
      #expect(Self.described(events) == ["press KEY_KP1", "release KEY_KP1", "press KEY_ESC"])
    } else {
      #expect(events.filter { $0.key == Key("KEY_NUMLOCK")! }.count == 4)
    }
  }

  @Test func droppedEventsAreRecoveredFromTheKeyState() throws {
    inspector.acceptsMonotonicClock = true
    let keypad = try keypad()
    try folder.send(
      Self.key("KEY_KP1", 1, at: 10) + Self.key("KEY_KP2", 1, at: 20), to: "event3")
    #expect(try keypad.readEvents(count: 2, at: .zero).count == 2)

    // The kernel's buffer overflowed: what follows up to the next report is incomplete.
    inspector.keysDown = [KeyCode(name: "KEY_KP2")!.rawValue, KeyCode(name: "KEY_KP5")!.rawValue]
    let dropped = InputEvent(
      timestamp: 30_000_000, type: .synchronization, code: InputEvent.dropped, value: 0)
    try folder.send(
      [dropped] + Self.key("KEY_KP3", 1, at: 35) + Self.key("KEY_KP9", 1, at: 50), to: "event3")
    let events = try keypad.readEvents(count: 3, at: .zero)
    #expect(
      Self.described(events) == ["release KEY_KP1", "press KEY_KP5", "press KEY_KP9"])
    #expect(events.map(\.time) == [.milliseconds(35), .milliseconds(35), .milliseconds(50)])
  }

  @Test func recordSplitAcrossTwoWritesIsNotGarbled() throws {
    let keypad = try keypad()
    let bytes = InputEvent.records(Self.key("KEY_KP4", 1))
    try folder.send(bytes[..<10], to: "event3")
    #expect(try keypad.readWhenReady(at: .zero) == [])
    try folder.send(bytes[10...], to: "event3")
    #expect(Self.described(try keypad.readEvents(count: 1, at: .zero)) == ["press KEY_KP4"])
  }

  @Test func unknownCodesAreDroppedAndLogged() throws {
    let keypad = try keypad()
    let unknown = InputEvent(type: .key, code: 84, value: 1)
    try folder.send([unknown] + Self.key("KEY_KP0", 1), to: "event3")
    #expect(Self.described(try keypad.readEvents(count: 1, at: .zero)) == ["press KEY_KP0"])
    #expect(log.lines.contains("<7>keypad numpad: key code 84 has no kernel name; ignored"))
  }

  @Test func keysHeldAtOpenReportOnlyTheirRelease() throws {
    inspector.keysDown = [KeyCode(name: "KEY_KPDOT")!.rawValue]
    let keypad = try keypad()
    try folder.send(Self.key("KEY_KPDOT", 0), to: "event3")
    #expect(Self.described(try keypad.readEvents(count: 1, at: .zero)) == ["release KEY_KPDOT"])
  }

  @Test func numLockLEDIsSetOnOpen() throws {
    // The other end, opened first, reads what the keypad writes to its device.
    let observer = try FileDescriptor.open(
      "\(folder.path)/event3", .readOnly, options: [.nonBlocking])
    defer { try? observer.close() }
    _ = try keypad(numLockLED: true)
    var bytes = [UInt8](repeating: 0, count: 4 * InputEvent.recordSize)
    let count = try bytes.withUnsafeMutableBytes { try observer.read(into: $0) }
    #expect(
      Array(bytes[..<count])
        == InputEvent.records([
          InputEvent(type: .led, code: InputEvent.numLockLED, value: 1),
          InputEvent(type: .synchronization, code: InputEvent.report, value: 0),
        ]))
  }

  @Test func logsTheDeviceAndItsNameWhenConnected() throws {
    let keypad = try keypad()
    #expect(keypad.devicePath == "\(folder.path)/event3")
    #expect(
      log.lines == [
        "<7>keypad numpad: EVIOCSCLOCKID \(folder.path)/event3: \(Errno.notTerminal); events "
          + "carry the time they are read",
        "<5>keypad numpad: \(folder.path)/event3 (SIGMACHIP USB Keyboard) connected",
      ])
  }

  @Test func grabFailureIsLoggedAndTheKeypadReadsOn() throws {
    let keypad = try EvdevKeypad(
      name: "numpad", selector: .path("\(folder.path)/event3"), inputDirectory: folder.path,
      inspector: inspector, logger: log.logger, at: .zero)
    #expect(
      log.lines.first
        == "<4>keypad numpad: EVIOCGRAB \(folder.path)/event3: \(Errno.notTerminal); its keys "
        + "also reach the console and other programs")
    try folder.send(Self.key("KEY_KP8", 1), to: "event3")
    #expect(Self.described(try keypad.readEvents(count: 1, at: .zero)) == ["press KEY_KP8"])
  }
}
