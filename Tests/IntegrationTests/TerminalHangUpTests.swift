@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// The demo ends with its terminal: when the window is closed or the connection dropped,
/// the daemon saves the scores, removes its socket and exits 0, instead of taking the
/// hang-up's SIGHUP for a reload and running on for ever under init.
@Suite(.serialized) struct TerminalHangUpTests {
  static func configuration(folder: TemporaryFolder, keypadDevice: String? = nil) -> String {
    """
    \(ScoreboardSection.text(in: folder, logLevel: "info"))

    [display main]
    driver = terminal
    digits = 2

    [field home]
    position = 1
    digits = 2

    [keypad keys]
    driver = terminal
    \(keypadDevice.map { "device = \($0)" } ?? "")
    keymap = keys

    [keymap keys]
    KEY_H = add home +1
    """
  }

  /// Reads what the daemon draws on the terminal, so that its writes never block.
  static func drain(_ terminal: PseudoTerminal) {
    var chunk = [UInt8](repeating: 0, count: 4096)
    var entry = pollfd(fd: terminal.master.rawValue, events: Int16(POLLIN), revents: 0)
    while poll(&entry, 1, 0) > 0, read(terminal.master.rawValue, &chunk, chunk.count) > 0 {}
  }

  @Test func closingTheWindowOfTheDemoStopsIt() throws {
    let folder = try TemporaryFolder()
    let config = try folder.write("demo.conf", Self.configuration(folder: folder))
    let terminal = try PseudoTerminal.open()
    let daemon = try DaemonProcess(
      arguments: ["--config", config], terminal: terminal.slavePath, folder: folder)
    #expect(daemon.waitForStderr { $0.contains("started") }, "\(daemon.stderrText)")

    // Keys typed on the terminal work, and are saved.
    try terminal.master.writeAll("hhh")
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(
      waitUntil {
        Self.drain(terminal)
        return client.request("get home") == "ok 3"
      })

    // The window closes: the terminal's master goes away and the kernel hangs it up.
    try terminal.master.close()
    #expect(daemon.waitForExit(timeout: 10) == 0, "\(daemon.stderrText)")
    #expect(daemon.stderrText.contains("the terminal hung up; stopping"))
    #expect(!daemon.stderrText.contains("reloading"))
    #expect(!folder.names().contains("control"), "the socket is removed")
    #expect(folder.readNewest("state")?.contains("field home 3\n") == true)
  }

  @Test func aKeypadTerminalThatHangsUpStopsTheDaemon() throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal.open()
    let config = try folder.write(
      "demo.conf", Self.configuration(folder: folder, keypadDevice: terminal.slavePath))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    #expect(daemon.waitForStderr { $0.contains("started") }, "\(daemon.stderrText)")
    try terminal.master.writeAll("h")
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(waitUntil { client.request("get home") == "ok 1" })

    try terminal.master.close()
    #expect(daemon.waitForExit(timeout: 10) == 0, "\(daemon.stderrText)")
    #expect(daemon.stderrText.contains("the terminal hung up"))
    #expect(folder.readNewest("state")?.contains("field home 1\n") == true)
  }

  @Test func aReloadWithoutAHangUpStillReloads() throws {
    let folder = try TemporaryFolder()
    let config = try folder.write("demo.conf", Self.configuration(folder: folder))
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.master.close() }
    let daemon = try DaemonProcess(
      arguments: ["--config", config], terminal: terminal.slavePath, folder: folder)
    #expect(daemon.waitForStderr { $0.contains("started") }, "\(daemon.stderrText)")

    // `systemctl reload`, or kill -HUP by hand: the terminal is still there.
    daemon.send(signal: SIGHUP)
    #expect(
      daemon.waitForStderr {
        Self.drain(terminal)
        return $0.contains("reloaded")
      },
      "\(daemon.stderrText)")
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("get home") == "ok 0", "still running")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
