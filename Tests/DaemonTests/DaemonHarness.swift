@preconcurrency import Glibc
import LinuxIO
import ProtocolDecoders
import ScoreboardConfig
import ScoreboardCore
import TestSupport

@testable import ScoreboardDaemon

/// The real daemon in the test's process, in virtual time: its configuration read from
/// a file, an S7S module on a pseudo-terminal (read back through the independent
/// decoder), an evdev keypad on a FIFO of `input_event` records stamped with the virtual
/// time, GPIO lines in memory, its state file and control socket in a folder of its
/// own. Time moves only when the test moves it, to each of the daemon's deadlines in
/// turn, so that every instant on the wire is exact.
final class DaemonHarness {
  let folder: TemporaryFolder
  let clock: SteppedTimeSource
  let gpio = FakeGPIOBackend()
  let log: LogCapture
  let daemon: Daemon
  let configurationPath: String
  /// The line of the S7S module `score`, and what the module shows.
  private let terminal: PseudoTerminal
  private var module = SerialSevenSegmentEmulator()
  private var receivedBytes = 0
  private let keypad: FileDescriptor

  /// The board: `score` (4 cells: home 1-2, away 3-4) on the S7S module at `baud`, a
  /// keypad `numpad` with `keys` added to its keymap, and `extra` sections.
  static func configuration(
    folder: TemporaryFolder, port: String, baud: Int = 115_200, keys: String = "",
    extra: String
  ) -> String {
    """
    \(ScoreboardSection.text(in: folder))
    blink-interval = 500ms

    [display score]
    driver = s7s
    port = \(port)
    baud = \(baud)

    [field home]
    display = score
    position = 1
    digits = 2

    [field away]
    display = score
    position = 3
    digits = 2

    [keypad numpad]
    driver = evdev
    device = \(folder.path(of: "keypad"))
    grab = no
    keymap = numpad

    [keymap numpad]
    KEY_KPPLUS = add home +1
    KEY_KPMINUS = add home -1
    KEY_KPASTERISK = add away +1
    \(keys)

    \(extra)
    """
  }

  /// Builds the daemon and runs its start; `keys` are added to the keymap and `extra`
  /// sections to the board, with `$FOLDER` standing for the harness's folder; the S7S
  /// module's line runs at `baud`; the GPIO lines debounce in the kernel when
  /// `kernelDebounce` says so (libgpiod v2), or not (v1). A daemon after another in the
  /// same `folder` restores its state file; `bootID` is the boot the daemon runs in, and
  /// its time starts at `time`. `systemd` is the environment systemd would give
  /// (`NOTIFY_SOCKET`, `WATCHDOG_USEC`).
  init(
    folder: TemporaryFolder? = nil, bootID: String = "boot-1", at time: Instant = .seconds(1_000),
    baud: Int = 115_200, kernelDebounce: Bool = true, keys: String = "", extra: String = "",
    systemd: [String: String] = [:]
  ) throws {
    self.folder = try folder ?? TemporaryFolder()
    let folder = self.folder
    clock = SteppedTimeSource(at: time)
    gpio.supportsKernelDebounce = kernelDebounce
    log = try LogCapture()
    terminal = try PseudoTerminal.open()
    try terminal.master.setNonBlocking()
    folder.remove("keypad")
    let fifo = try folder.makeFIFO("keypad")
    keypad = try FileDescriptor.open(fifo, .readWrite, options: [.nonBlocking])
    configurationPath = try folder.write(
      "scoreboardd.conf",
      Self.configuration(
        folder: folder, port: terminal.slavePath, baud: baud, keys: keys,
        extra: extra.replacing("$FOLDER", with: folder.path)))
    let configuration = try ConfigurationFile.load(configurationPath)
    daemon = try Daemon(
      configuration: configuration, gpio: gpio, i2c: FakeI2CBackend(answering: []),
      logger: log.logger, notifier: SystemdNotifier(environment: systemd), clock: clock,
      bootID: bootID)
    try daemon.start()
    try settle()
  }

  deinit {
    daemon.shutDown()
    try? keypad.close()
  }

  // MARK: - Time

  /// Serves what is ready now, without moving time: the round after a key or a request.
  func settle() throws {
    try daemon.runRound(waitingAtMost: .zero)
  }

  /// Lets virtual time pass until `instant`: the clock moves to each of the daemon's
  /// deadlines up to it in turn and a round serves it there, then to `instant`.
  func advance(to instant: Instant) throws {
    while let deadline = daemon.nextDeadline, deadline <= instant {
      clock.time = max(clock.time, deadline)
      try daemon.runRound(waitingAtMost: .zero)
    }
    clock.time = max(clock.time, instant)
    try daemon.runRound(waitingAtMost: .zero)
  }

  /// `advance(to:)` the instant `duration` from now.
  func advance(by duration: Duration) throws {
    try advance(to: clock.now() + duration)
  }

  /// Runs rounds, waiting up to 10 ms of real time each, until `condition` holds or 10 s
  /// have passed: for what another thread does (the state file's writes).
  func runUntil(_ condition: () -> Bool) throws -> Bool {
    let deadline = MonotonicClock.now() + 10_000_000_000
    while !condition() {
      guard MonotonicClock.now() < deadline else { return false }
      try daemon.runRound(waitingAtMost: .milliseconds(10))
    }
    return true
  }

  // MARK: - Wires

  /// Writes a key's press or release, stamped with the virtual time, into the keypad.
  func key(_ name: String, pressed: Bool) throws {
    guard let code = KeyCode(name: name) else { throw TestSupportError("no key \(name)") }
    let stamp = clock.now().nanoseconds
    let records = InputEvent.records([
      InputEvent(timestamp: stamp, type: .key, code: code.rawValue, value: pressed ? 1 : 0),
      InputEvent(timestamp: stamp, type: .synchronization, code: InputEvent.report, value: 0),
    ])
    _ = try records.withUnsafeBytes { try keypad.write($0) }
  }

  /// Presses and releases a key `times` times, `interval` apart in virtual time, each
  /// served in its round: a burst of keys.
  func press(_ name: String, times: Int, every interval: Duration) throws {
    for _ in 0..<times {
      try press(name)
      try advance(by: interval)
    }
  }

  /// Presses and releases a key now, and serves it.
  func press(_ name: String) throws {
    try key(name, pressed: true)
    try key(name, pressed: false)
    try settle()
  }

  /// What the S7S module shows now, as the segment font reads its digits.
  var shows: String {
    receive()
    let cells = module.digits.map { glyph -> Segments in
      if case .segments(let bits) = glyph { Segments(rawValue: bits) } else { .blank }
    }
    return SegmentFont.text(for: cells)
  }

  /// The bytes the S7S module has received since the daemon started.
  var bytesOnWire: Int {
    receive()
    return receivedBytes
  }

  /// Feeds what the daemon wrote to the S7S module's line to the module.
  private func receive() {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while let count = try? chunk.withUnsafeMutableBytes({ try terminal.master.read(into: $0) }),
      count > 0
    {
      module.receive(Array(chunk[..<count]))
      receivedBytes += count
    }
  }

  /// The path of the S7S module's line.
  var terminalPath: String { terminal.slavePath }

  /// Whether the display `name` is online, as `status` says.
  func isOnline(_ name: String) -> Bool? {
    daemon.controlStatus().displays.first { $0.name == name }?.isOnline
  }

  /// Whether the keypad `name` is online, as `status` says.
  func isKeypadOnline(_ name: String) -> Bool? {
    daemon.controlStatus().keypads.first { $0.name == name }?.isOnline
  }

  /// The FakeGPIOLines requested for `line` (a horn's, a display's).
  func lines(of line: String) -> FakeGPIOLines? {
    gpio.requests.last { request in request.addresses.contains { "\($0)" == line } }
  }

  /// Connects a control client; the daemon takes it in its next round.
  func controlClient() throws -> ControlClient {
    let client = try ControlClient(path: folder.path(of: "control"), timeout: 1)
    try settle()
    return client
  }

  /// Sends a request and serves rounds until its answer comes (an answer that promises a
  /// saved change waits for the state file's thread).
  func request(_ line: String, from client: ControlClient) throws -> String? {
    client.send(line)
    var answer: String?
    _ = try runUntil {
      answer = client.readLine(timeout: 0.001)
      return answer != nil
    }
    return answer
  }
}
