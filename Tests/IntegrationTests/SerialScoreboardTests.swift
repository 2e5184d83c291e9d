@preconcurrency import Glibc
import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import TestSupport
import Testing

/// The real daemon driving an S7S module on a pseudo-terminal: keys typed on a second
/// pseudo-terminal, the module's state decoded from the bytes on the wire.
@Suite(.serialized) struct SerialScoreboardTests {
  /// The far end of the display's serial line: a pseudo-terminal behind a symbolic
  /// link the daemon opens, which the test can unplug and plug in again.
  final class SerialModule {
    let link: String
    private let folder: TemporaryFolder
    private var terminal: PseudoTerminal?
    private(set) var emulator = SerialSevenSegmentEmulator()
    private(set) var byteCount = 0
    private(set) var clears = 0

    /// A module whose link is `serial0` in `folder`.
    init(in folder: TemporaryFolder) throws {
      self.folder = folder
      link = folder.path(of: "serial0")
      try plugIn()
    }

    deinit {
      unplug()
    }

    /// A new pseudo-terminal under the link: a module with its power just back.
    func plugIn() throws {
      let terminal = try PseudoTerminal.open()
      unlink(link)
      symlink(terminal.slavePath, link)
      self.terminal = terminal
      emulator = SerialSevenSegmentEmulator()
      clears = 0
    }

    func unplug() {
      try? terminal?.master.close()
      terminal = nil
      unlink(link)
    }

    /// The module's own power cut and back, its port never closed: it starts again with
    /// every segment and point lit, and the daemon cannot tell.
    func losePower() {
      emulator = SerialSevenSegmentEmulator()
      clears = 0
    }

    /// What the module shows, as text.
    var shows: String {
      let cells = emulator.digits.map { glyph -> Segments in
        if case .segments(let bits) = glyph { Segments(rawValue: bits) } else { [.a, .d, .g] }
      }
      return SegmentFont.text(for: cells)
    }

    /// Reads the line until the module shows `text`, for at most `timeout` seconds.
    @discardableResult
    func waitUntilShowing(_ text: String, timeout: Double = 10) -> Bool {
      let deadline = Self.now() + timeout
      while shows != text {
        let remaining = deadline - Self.now()
        guard remaining > 0, let master = terminal?.master else { return false }
        var entry = pollfd(fd: master.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, CInt(remaining * 1000) + 1) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = (try? buffer.withUnsafeMutableBytes { try master.read(into: $0) }) ?? 0
        guard count > 0 else { return false }
        clears += buffer[..<count].filter { $0 == 0x76 }.count
        byteCount += count
        emulator.receive(Array(buffer[..<count]))
      }
      return true
    }

    static func now() -> Double {
      var spec = timespec()
      clock_gettime(CLOCK_MONOTONIC, &spec)
      return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
  }

  static func configuration(
    port: String, keypad: String, onStop: String = "keep", displayKeys: String = ""
  ) -> String {
    """
    [scoreboard]
    state-file = none
    control-socket = none

    [display main]
    driver = s7s
    port = \(port)
    baud = 9600
    on-stop = \(onStop)
    \(displayKeys)

    [field home]
    position = 1
    digits = 2

    [field away]
    position = 3
    digits = 2
    placeholder = 0

    [keypad keys]
    driver = terminal
    device = \(keypad)
    keymap = keys

    [keymap keys]
    KEY_1 = digit 1
    KEY_2 = digit 2
    KEY_7 = digit 7
    KEY_TAB = next
    KEY_ENTER = commit
    KEY_H = add home +1
    KEY_A = add away +1
    """
  }

  static func start(
    onStop: String = "keep", displayKeys: String = "", in folder: TemporaryFolder? = nil,
    environment: [String: String] = [:]
  ) throws -> (DaemonProcess, SerialModule, PseudoTerminal) {
    let folder = try folder ?? TemporaryFolder()
    let module = try SerialModule(in: folder)
    let keypad = try PseudoTerminal.open()
    let path = try folder.write(
      "serial.conf",
      configuration(
        port: module.link, keypad: keypad.slavePath, onStop: onStop, displayKeys: displayKeys))
    let daemon = try DaemonProcess(
      arguments: ["--config", path], environment: environment, folder: folder)
    return (daemon, module, keypad)
  }

  @Test func keysInDecodedDigitsOut() throws {
    let (daemon, module, keypad) = try Self.start()
    #expect(module.waitUntilShowing(" 000"), "initial frame")
    #expect(module.clears == 1, "initialised once")
    #expect(module.emulator.brightness == 53, "brightness 8 of 15")

    try keypad.master.writeAll("12")
    #expect(module.waitUntilShowing("1200"))
    try keypad.master.writeAll("\t7\r")
    #expect(module.waitUntilShowing("1270"), "type-over: 7 goes in the first cell of away")
    #expect(module.emulator.brightnessCommands == 1, "brightness is written once, not per frame")

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    #expect(module.shows == "1270", "the score stays on the module")
  }

  @Test func theModuleRecoversFromAnUnplugWithTheCurrentScore() throws {
    let (daemon, module, keypad) = try Self.start()
    #expect(module.waitUntilShowing(" 000"))
    try keypad.master.writeAll("hh")
    #expect(module.waitUntilShowing(" 200"))

    module.unplug()
    #expect(daemon.waitForStderr { $0.contains("offline") }, "\(daemon.stderrText)")
    try keypad.master.writeAll("ha")  // committed while the module is away
    #expect(
      daemon.waitForStderr { $0.contains("home: 2 -> 3") && $0.contains("away: 0 -> 1") },
      "\(daemon.stderrText)")

    let pluggedAt = SerialModule.now()
    try module.plugIn()
    #expect(module.waitUntilShowing(" 301"), "re-initialised with the current score")
    let recovery = SerialModule.now() - pluggedAt
    #expect(module.clears == 1, "the new module got a clear first")
    #expect(module.emulator.brightness == 53)
    #expect(daemon.waitForStderr { $0.contains("is back; re-initialising") })
    print("serial re-initialisation \(Int(recovery * 1000)) ms after the port came back")

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  /// A module whose power was cut while its port stayed open shows the board again
  /// within `reinit-interval`, although nothing on the board changed: under systemd the
  /// refresh rides on the watchdog's wakeups; without a watchdog the loop wakes for it.
  @Test(arguments: [true, false])
  func aModuleThatLostPowerShowsTheBoardAgainWithoutAChange(underWatchdog: Bool) throws {
    let folder = try TemporaryFolder()
    let receiver = try NotifyReceiver(folder: folder.path)
    let (daemon, module, keypad) = try Self.start(
      displayKeys: "reinit-interval = 1s", in: folder,
      environment: underWatchdog
        ? ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "200000"] : [:])
    if underWatchdog {
      #expect(receiver.waitFor("READY=1") != nil, "\(daemon.stderrText)")
    }
    #expect(module.waitUntilShowing(" 000"))
    try keypad.master.writeAll("hh")
    #expect(module.waitUntilShowing(" 200"))

    module.losePower()
    #expect(module.shows != " 200")
    #expect(module.waitUntilShowing(" 200", timeout: 5), "sent again, the board unchanged")
    #expect(module.clears == 0, "written in place, without a clear")
    #expect(module.emulator.brightnessCommands == 0, "no EEPROM write")
    #expect(module.emulator.violations.isEmpty)

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func onStopBlankDarkensTheModule() throws {
    let (daemon, module, keypad) = try Self.start(onStop: "blank")
    #expect(module.waitUntilShowing(" 000"))
    try keypad.master.writeAll("h")
    #expect(module.waitUntilShowing(" 100"))
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    #expect(module.waitUntilShowing("    "))
  }
}
