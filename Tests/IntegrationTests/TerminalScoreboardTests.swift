@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// The real daemon, driven through its terminal keypad on a pseudo-terminal, printing
/// plain frames on a pipe.
@Suite(.serialized) struct TerminalScoreboardTests {
  static func configuration(keypadDevice: String, cursor: String = "none") -> String {
    """
    [scoreboard]
    cursor = \(cursor)
    blink-interval = 200ms
    state-file = none
    control-socket = none

    [display main]
    driver = terminal
    digits = 8

    [field home]
    position = 1
    digits = 2

    [field period]
    position = 4
    values = 1 2 3 4 OT

    [field away]
    position = 7
    digits = 2
    entry = shift
    placeholder = 0

    [keypad keys]
    driver = terminal
    device = \(keypadDevice)
    keymap = keys

    [keymap keys]
    KEY_1 = digit 1
    KEY_2 = digit 2
    KEY_7 = digit 7
    KEY_ENTER = commit
    KEY_ESC = cancel
    KEY_A = select away
    KEY_H = add home +1
    KEY_P = add period -1
    KEY_U = undo
    """
  }

  /// Starts the daemon on a fresh pseudo-terminal keypad.
  static func start(cursor: String = "none") throws -> (DaemonProcess, PseudoTerminal) {
    let terminal = try PseudoTerminal.open()
    return (try start(on: terminal, cursor: cursor), terminal)
  }

  /// The daemon with its keypad on `terminal`.
  static func start(on terminal: PseudoTerminal, cursor: String = "none") throws -> DaemonProcess {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      "scoreboardd.conf", configuration(keypadDevice: terminal.slavePath, cursor: cursor))
    return try DaemonProcess(arguments: ["--config", path], folder: folder)
  }

  static func type(_ text: String, on terminal: PseudoTerminal) throws {
    try terminal.master.writeAll(Array(text.utf8))
  }

  @Test func keysOnTheTerminalChangeTheFrames() throws {
    let (daemon, terminal) = try Self.start()
    #expect(daemon.waitForLine { $0 == "main:  0  1 00" } != nil, "first frame")

    try Self.type("12", on: terminal)
    #expect(
      daemon.waitForLine { $0 == "main: 12  1 00" } != nil, "type-over commits at the last digit")

    try Self.type("a7\r", on: terminal)
    #expect(
      daemon.waitForLine { $0 == "main: 12  1 07" } != nil, "calculator entry commits on Enter")

    try Self.type("hp", on: terminal)
    #expect(
      daemon.waitForLine { $0 == "main: 13 0t 07" } != nil, "direct actions; the list wraps to OT")

    try Self.type("uu", on: terminal)
    #expect(daemon.waitForLine { $0 == "main: 12  1 07" } != nil, "undo twice")

    try Self.type("a2", on: terminal)
    #expect(daemon.waitForLine { $0 == "main: 12  1 02" } != nil, "the entry shows while typing")
    try Self.type("\u{1B}", on: terminal)
    #expect(
      daemon.waitForLine { $0 == "main: 12  1 07" } != nil, "Esc cancels back to the old value")

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    #expect(daemon.stderrText.contains("home: 0 -> 12 (keypad keys)"), "\(daemon.stderrText)")
  }

  @Test func theCursorBlinksWhileEditing() throws {
    let (daemon, terminal) = try Self.start(cursor: "blink")
    #expect(daemon.waitForLine { $0 == "main:  0  1 00" } != nil)
    try Self.type("a", on: terminal)
    // Away is edited: its last cell blinks between 0 and dark.
    #expect(daemon.waitForLine { $0 == "main:  0  1 0 " } != nil)
    #expect(daemon.waitForLine { $0 == "main:  0  1 00" } != nil)
    #expect(daemon.waitForLine { $0 == "main:  0  1 0 " } != nil)
    daemon.send(signal: SIGINT)
    #expect(daemon.waitForExit() == 0)
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func theTerminalIsRestoredOnExit(signal: CInt) throws {
    let terminal = try PseudoTerminal.open()
    let slave = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    #expect(slave >= 0)
    defer { close(slave) }
    // Read before the daemon starts, which may put the terminal in raw mode at once.
    var before = termios()
    tcgetattr(slave, &before)
    #expect(before.c_lflag & tcflag_t(ICANON) != 0, "a fresh pseudo-terminal is canonical")
    let daemon = try Self.start(on: terminal)

    #expect(daemon.waitForLine { $0.hasPrefix("main:") } != nil)
    var raw = termios()
    tcgetattr(slave, &raw)
    #expect(raw.c_lflag & tcflag_t(ICANON | ECHO) == 0, "the keypad puts the terminal in raw mode")

    daemon.send(signal: signal)
    #expect(daemon.waitForExit() == 0)
    var after = termios()
    tcgetattr(slave, &after)
    #expect(after.c_lflag == before.c_lflag)
    #expect(after.c_iflag == before.c_iflag)
  }
}
