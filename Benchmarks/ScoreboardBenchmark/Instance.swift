@preconcurrency import Glibc
import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import TestSupport

/// A program under test: scoreboardd, the Python peer, or the C floor.
enum Subject: String, CaseIterable {
  case scoreboardd
  case peer
  case floor
}

/// Where the programs under test are.
struct Programs {
  var scoreboardd: String
  var python: String
  var peerScript: String
  var floor: String
  /// The real-time priority the systemd unit gives scoreboardd's loop
  /// (`CPUSchedulingPriority=`), when known.
  var unitPriority: Int? = nil
}

/// How a subject is scheduled.
enum Scheduling: Equatable {
  /// As a program started by hand: the time-sharing policy, nice 0.
  case ordinary
  /// As `scoreboardd.service` starts the daemon: `SCHED_FIFO` at `priority` with reset
  /// on fork, so that the loop's thread is real-time and every thread it starts is
  /// ordinary (`chrt --fifo --reset-on-fork`).
  case asTheUnit(priority: Int)

  /// The program that starts a subject so, and its arguments, before the subject's own.
  var prefix: [String] {
    switch self {
    case .ordinary: []
    case .asTheUnit(let priority): ["/usr/bin/chrt", "--fifo", "--reset-on-fork", String(priority)]
    }
  }

  /// Why a subject cannot be scheduled so on this machine; nil when it can.
  var unavailableReason: String? {
    guard case .asTheUnit = self else { return nil }
    if access("/usr/bin/chrt", X_OK) != 0 { return "/usr/bin/chrt (util-linux) is missing" }
    if geteuid() != 0 { return "a real-time policy needs root, as systemd has" }
    return nil
  }
}

/// The keys the benchmarks press (Linux key codes) and what they do in every subject.
enum Key: UInt16 {
  case homeUp = 78  // KEY_KPPLUS
  case homeDown = 74  // KEY_KPMINUS
  case awayUp = 55  // KEY_KPASTERISK
  case awayDown = 98  // KEY_KPSLASH
  case digitOne = 79  // KEY_KP1: starts an edit (scoreboardd only)
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
}

/// What the kernel counts for a process.
struct ProcessCounters {
  var voluntarySwitches = 0
  var involuntarySwitches = 0
  /// utime + stime, in clock ticks.
  var cpuTicks = 0
  /// Time on the CPU from the scheduler (user + system), in nanoseconds: of the main
  /// thread only (`/proc/PID/schedstat`).
  var cpuNanoseconds: Int64 = 0
  /// The same summed over every thread the process has now (`/proc/PID/task/*/schedstat`),
  /// such as scoreboardd's MQTT client thread.
  var allThreadsCPUNanoseconds: Int64 = 0
  var residentKilobytes = 0
  var peakResidentKilobytes = 0
  /// Resident anonymous memory (`RssAnon`): the process's private memory (heap,
  /// stacks, written data), beside the pages it shares with the files it maps.
  var anonymousKilobytes = 0
  /// Voluntary context switches of every thread the process has now.
  var allThreadsWakeups = 0
  /// read(2)- and write(2)-family system calls.
  var readCalls = 0
  var writeCalls = 0

  /// Each time the process went to sleep and was woken: its voluntary context switches.
  /// (Involuntary ones are preemptions while it runs, such as by the kernel worker that
  /// a write to a terminal wakes.)
  var wakeups: Int { voluntarySwitches }
}

/// One running subject with its own keypad (a FIFO carrying `input_event` records) and
/// its own S7S display (a pseudo-terminal whose master side the benchmark reads).
final class Instance {
  let subject: Subject
  let folder: String
  let devicePath: String
  /// The FIFO, held open read-write (non-blocking) so that the subject never sees its end.
  let keypad: CInt
  let terminal: PseudoTerminal
  var master: CInt { terminal.master.rawValue }
  private let slave: CInt
  private(set) var pid: pid_t = 0
  /// When `posix_spawn` was called.
  private(set) var spawnedAt: Int64 = 0
  /// The notification socket given as NOTIFY_SOCKET, if any.
  private(set) var notifySocket: CInt = -1

  private(set) var emulator = SerialSevenSegmentEmulator()
  private(set) var bytesReceived = 0
  /// The state the subject should reach with the keys pressed so far.
  private(set) var home = 0
  private(set) var away = 0
  private(set) var presses = 0
  private var running = false
  /// The game clock scoreboardd shows instead of the two scores, if any.
  let clock: ClockSetup?
  /// scoreboardd's `[mqtt]` section, if any.
  let mqtt: MQTTSetup?
  /// scoreboardd's `[web]` section, if any; with it, the control socket is open too.
  let web: WebSetup?
  /// Whether scoreboardd's control socket is open without `[web]`.
  let opensControl: Bool
  /// Whether scoreboardd keeps a state file (without a clock: with one, it always
  /// does); the floor then keeps its presses in one (`floor --save`).
  let keepsState: Bool
  /// The floor's ticks (`floor --ticks`): a byte at `start` and every `period` after it
  /// (nanoseconds on `CLOCK_MONOTONIC`) instead of an answer to each key.
  let floorTicks: (start: Int64, period: Int64)?
  /// scoreboardd's state file and control socket (with a clock or `[web]` only).
  var statePath: String { folder + "/state" }
  var controlPath: String { folder + "/control" }

  /// The pseudo-terminals of the instances that are gone, kept open.
  nonisolated(unsafe) private static var retiredTerminals: [PseudoTerminal] = []

  /// The bytes the floor writes for each key press.
  static let floorFrameSize = 2

  /// Starts `subject` with a display at `baud`. `preloadedKeys` are in the keypad before
  /// the subject starts; `notify` gives it a NOTIFY_SOCKET; `scheduling` is how
  /// scoreboardd is started; `web` gives it a web server and a control socket,
  /// `opensControl` the control socket alone; `floorTicks` makes the floor a clock's.
  init(
    _ subject: Subject, programs: Programs, baud: Int, environment: [String: String] = [:],
    notify: Bool = false, preloadedKeys: [Key] = [], clock: ClockSetup? = nil,
    keepsState: Bool = false, mqtt: MQTTSetup? = nil, web: WebSetup? = nil,
    opensControl: Bool = false, scheduling: Scheduling = .ordinary,
    floorTicks: (start: Int64, period: Int64)? = nil
  ) throws {
    self.opensControl = opensControl
    self.keepsState = keepsState
    self.floorTicks = floorTicks
    self.subject = subject
    self.clock = clock
    self.mqtt = mqtt
    self.web = web
    var template = Array("/tmp/scoreboardd-bench-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw BenchmarkError(description: "mkdtemp") }
    folder = String(cString: made)
    devicePath = folder + "/event0"
    guard mkfifo(devicePath, 0o600) == 0 else { throw BenchmarkError(description: "mkfifo") }
    keypad = open(devicePath, O_RDWR | O_NONBLOCK | O_CLOEXEC)
    guard keypad >= 0 else { throw BenchmarkError(description: "open \(devicePath)") }
    terminal = try PseudoTerminal.open()
    try terminal.master.setNonBlocking()
    // Held open so that the master never reports a hang-up, before the subject opens
    // the slave or after it closes it.
    slave = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw BenchmarkError(description: "open \(terminal.slavePath)") }

    var variables = environment
    if notify {
      let path = folder + "/notify"
      notifySocket = try Self.datagramSocket(boundTo: path)
      variables["NOTIFY_SOCKET"] = path
    }
    for key in preloadedKeys {
      press(key)
    }
    try start(baud: baud, programs: programs, environment: variables, scheduling: scheduling)
  }

  deinit {
    stop()
    close(keypad)
    if notifySocket >= 0 {
      close(notifySocket)
    }
    close(slave)
    // The pair stays open until the harness exits, so that no later instance gets its
    // number: on a reused pseudo-terminal, the Python peer's writes after a key were
    // seen to stay in the kernel, never reaching the master side (the previous user of
    // the number was scoreboardd or the peer, never the floor; not understood).
    Self.retire(terminal)
    for name in ["event0", "notify", "scoreboardd.conf", "stderr.log", "state", "control"] {
      unlink(folder + "/" + name)
    }
    rmdir(folder)
  }

  private func start(
    baud: Int, programs: Programs, environment: [String: String], scheduling: Scheduling
  ) throws {
    let arguments: [String]
    switch subject {
    case .scoreboardd:
      let configuration = folder + "/scoreboardd.conf"
      let text =
        clock.map {
          Self.clockConfiguration(
            device: devicePath, port: terminal.slavePath, baud: baud, clock: $0, folder: folder)
        }
        ?? Self.configuration(
          device: devicePath, port: terminal.slavePath, baud: baud,
          stateFile: keepsState ? statePath : "none",
          controlSocket: web == nil && !opensControl ? "none" : controlPath)
      try writeText(text + (mqtt?.section ?? "") + (web?.section ?? ""), to: configuration)
      arguments = scheduling.prefix + [programs.scoreboardd, "--config", configuration]
    case .peer:
      arguments = [
        programs.python, programs.peerScript, "--device", devicePath, "--port",
        terminal.slavePath, "--baud", String(baud),
      ]
    case .floor:
      arguments =
        floorTicks.map {
          [programs.floor, "--ticks", terminal.slavePath, String($0.start), String($0.period)]
        }
        ?? ((keepsState ? [programs.floor, "--save", statePath] : [programs.floor])
          + [devicePath, terminal.slavePath])
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 2, folder + "/stderr.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var variables = environment
    for name in ["PATH", "HOME", "LANG"] where variables[name] == nil {
      if let value = getenv(name) {
        variables[name] = String(cString: value)
      }
    }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp {
        free(pointer)
      }
    }
    spawnedAt = MonotonicClock.now()
    let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard result == 0 else {
      throw BenchmarkError(description: "posix_spawn \(arguments[0]): \(result)")
    }
    running = true
  }

  /// Stops the subject (SIGTERM, then SIGKILL after 5 s) and reaps it.
  func stop() {
    guard running else { return }
    running = false
    kill(pid, SIGTERM)
    let deadline = MonotonicClock.now() + 5_000_000_000
    var status: CInt = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      if MonotonicClock.now() > deadline {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        return
      }
      usleep(2000)
      drain()
    }
  }

  /// What the subject's standard error says (for failures).
  var log: String {
    (try? readText(folder + "/stderr.log")) ?? ""
  }

  static func configuration(
    device: String, port: String, baud: Int, stateFile: String = "none",
    controlSocket: String = "none"
  ) -> String {
    """
    [scoreboard]
    state-file = \(stateFile)
    control-socket = \(controlSocket)
    log-level = warning
    blink-interval = 500ms
    edit-timeout = 0

    [display main]
    driver = s7s
    port = \(port)
    baud = \(baud)

    [field home]
    position = 1
    digits = 2

    [field away]
    position = 3
    digits = 2
    placeholder = 0

    [keypad numpad]
    driver = evdev
    device = \(device)
    grab = no
    keymap = numpad

    [keymap numpad]
    KEY_KPPLUS = add home +1
    KEY_KPMINUS = add home -1
    KEY_KPASTERISK = add away +1
    KEY_KPSLASH = add away -1
    KEY_KP1 = digit 1
    KEY_KPENTER = commit

    """
  }

  /// A scoreboardd with one game clock on the S7S module, its state file and control
  /// socket in `folder`.
  static func clockConfiguration(
    device: String, port: String, baud: Int, clock: ClockSetup, folder: String
  ) -> String {
    """
    [scoreboard]
    state-file = \(folder)/state
    control-socket = \(folder)/control
    log-level = warning

    [display main]
    driver = s7s
    port = \(port)
    baud = \(baud)

    [field game]
    type = clock
    display = main
    position = 1
    length = \(clock.length)
    tenths-below = \(clock.tenthsBelow)

    [keypad numpad]
    driver = evdev
    device = \(device)
    grab = no
    keymap = numpad

    [keymap numpad]
    KEY_KPENTER = start-stop

    """ + (clock.penalties ? penaltySections : "") + (clock.shotClock ? shotClockSections : "")
  }

  /// A basketball board's shot clock, which runs with the game clock, on the terminal's
  /// display, which writes to /dev/null.
  static let shotClockSections = """
    [display shot]
    driver = terminal
    digits = 2

    [field shot]
    type = shot-clock
    display = shot
    position = 1
    resets = 24 14
    follows = game

    """

  /// An ice hockey board's penalties: two slots a team (player and M:SS) on the
  /// terminal's display, which writes to /dev/null.
  static let penaltySections = """
    [display penalties]
    driver = terminal
    digits = 20

    [field home-penalties]
    type = penalties
    team = home
    display = penalties
    position = 1

    [field away-penalties]
    type = penalties
    team = away
    display = penalties
    position = 11

    """

  // MARK: - Keys

  /// The records of a press (value 1) or release (value 0) and its SYN_REPORT.
  static func records(_ key: Key, value: Int32) -> [UInt8] {
    InputEvent.records([
      InputEvent(type: .key, code: key.rawValue, value: value),
      InputEvent(type: .synchronization, code: InputEvent.report, value: 0),
    ])
  }

  /// Counts a press of `key` in the expected state; returns its records.
  @discardableResult
  func expect(_ key: Key) -> [UInt8] {
    presses += 1
    switch key {
    case .homeUp: home = min(home + 1, 99)
    case .homeDown: home = max(home - 1, 0)
    case .awayUp: away = min(away + 1, 99)
    case .awayDown: away = max(away - 1, 0)
    case .digitOne: break
    }
    return Self.records(key, value: 1)
  }

  /// Presses key `number` of a key-to-wire run (home +1 and -1 in turn) and times its
  /// answer: the instant just before the `write` of the press (its record and its
  /// SYN_REPORT) and the return of the `poll` that finds the first byte of the answer on
  /// the display's master side, and whether the harness was on another processor then
  /// than before the write. Then it reads the answer and writes the release, untimed.
  func timedKey(_ number: Int) throws -> TimedKey {
    let key: Key = number % 2 == 0 ? .homeUp : .homeDown
    drain()
    let records = expect(key)
    let processor = Processor.current()
    let start = MonotonicClock.now()
    guard writeSome(records, from: 0) == records.count else {
      throw BenchmarkError(description: "\(subject): the keypad FIFO is full")
    }
    guard let arrival = waitForByte(deadline: start + 2_000_000_000) else {
      throw BenchmarkError(description: "\(subject): no answer to key \(number)\n\(log)")
    }
    let crossed = Processor.current() != processor
    drain()
    release(key)
    return TimedKey(start: start, arrival: arrival, crossedProcessors: crossed)
  }

  /// Presses `key`: writes its press records into the keypad.
  func press(_ key: Key) {
    writeToKeypad(expect(key))
  }

  func release(_ key: Key) {
    writeToKeypad(Self.records(key, value: 0))
  }

  /// Writes all of `bytes` into the keypad, waiting while the FIFO is full.
  func writeToKeypad(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = writeSome(bytes, from: offset)
      if written > 0 {
        offset += written
      } else {
        var entries = [
          pollfd(fd: keypad, events: Int16(POLLOUT), revents: 0),
          pollfd(fd: master, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&entries, 2, 100)
        drain()
      }
    }
  }

  /// The most bytes written at once: whole records, at most PIPE_BUF, so that each write
  /// is atomic and the subject only ever reads whole records, as from a device.
  static let chunkSize = 4096 / InputEvent.recordSize * InputEvent.recordSize

  /// Writes what the FIFO takes now of `bytes` from `offset` (a record boundary);
  /// returns how many.
  func writeSome(_ bytes: [UInt8], from offset: Int) -> Int {
    var total = 0
    while offset + total < bytes.count {
      let size = min(bytes.count - offset - total, Self.chunkSize)
      let written = bytes.withUnsafeBytes {
        write(keypad, $0.baseAddress! + offset + total, size)
      }
      guard written > 0 else { break }
      total += written
    }
    return total
  }

  // MARK: - The display

  /// What the module shows.
  var shows: String {
    let cells = emulator.digits.map { glyph -> Segments in
      if case .segments(let bits) = glyph { Segments(rawValue: bits) } else { [.a, .d, .g] }
    }
    return SegmentFont.text(for: cells)
  }

  /// What the module should show after the keys pressed so far.
  var expectedText: String {
    (home < 10 ? " \(home)" : "\(home)") + (away < 10 ? "0\(away)" : "\(away)")
  }

  /// The subject has answered every key pressed so far: the module shows the expected
  /// state (the floor, which has no state: it wrote its fixed frame for every press).
  var isSettled: Bool {
    subject == .floor ? bytesReceived >= presses * Self.floorFrameSize : shows == expectedText
  }

  /// Takes one byte as the module receives it.
  func receive(_ byte: UInt8) {
    bytesReceived += 1
    emulator.receive([byte])
  }

  /// Reads whatever the subject wrote; returns how many bytes.
  @discardableResult
  func drain() -> Int {
    var total = 0
    while true {
      let count = readOnce()
      guard count > 0 else { break }
      total += count
    }
    return total
  }

  /// One read of what the subject wrote, given to the module; returns how many bytes (0
  /// when none waited).
  func readOnce() -> Int {
    let bytes = readAvailable()
    bytesReceived += bytes.count
    emulator.receive(bytes)
    return bytes.count
  }

  /// Reads whatever the subject wrote without giving it to the module, for a caller that
  /// gives it byte by byte (`receive(_:)`); empty when nothing waited.
  func takeBytes() -> [UInt8] {
    var bytes: [UInt8] = []
    while case let chunk = readAvailable(), !chunk.isEmpty {
      bytes += chunk
    }
    return bytes
  }

  /// One read of the master side; empty when nothing waited.
  private func readAvailable() -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(master, &buffer, buffer.count)
    return count > 0 ? Array(buffer[..<count]) : []
  }

  /// Reads one byte if there is one.
  func readByte() -> UInt8? {
    var byte: UInt8 = 0
    return read(master, &byte, 1) == 1 ? byte : nil
  }

  /// Waits until the display side is readable; returns the time it became so, or nil at
  /// `deadline`.
  func waitForByte(deadline: Int64) -> Int64? {
    var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    while true {
      let now = MonotonicClock.now()
      guard now < deadline else { return nil }
      let timeout = CInt(min((deadline - now) / 1_000_000 + 1, 1000))
      if poll(&entry, 1, timeout) > 0 {
        return MonotonicClock.now()
      }
    }
  }

  /// Waits until the subject has started and answers: its initial frame, or for the
  /// floor, which shows nothing before a key, its answer to one key.
  func waitUntilReady() throws {
    if subject == .floor {
      press(.homeUp)
      release(.homeUp)
    }
    try waitUntilSettled()
  }

  /// Reads the display side until the subject has answered every key.
  func waitUntilSettled(timeout seconds: Double = 10) throws {
    let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
    while !isSettled {
      guard waitForByte(deadline: deadline) != nil else {
        throw BenchmarkError(
          description: "\(subject): shows \"\(shows)\" (\(bytesReceived) bytes), expected "
            + "\"\(expectedText)\" (\(presses) presses); its log:\n\(log)")
      }
      drain()
    }
  }

  // MARK: - The process

  var counters: ProcessCounters {
    var counters = ProcessCounters()
    for line in ((try? readText("/proc/\(pid)/status")) ?? "").split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 1)
      guard fields.count == 2 else { continue }
      let number = Int(fields[1].filter(\.isNumber)) ?? 0
      switch fields[0] {
      case "voluntary_ctxt_switches": counters.voluntarySwitches = number
      case "nonvoluntary_ctxt_switches": counters.involuntarySwitches = number
      case "VmRSS": counters.residentKilobytes = number
      case "VmHWM": counters.peakResidentKilobytes = number
      case "RssAnon": counters.anonymousKilobytes = number
      default: break
      }
    }
    if let stat = try? readText("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") {
      let fields = stat[stat.index(after: end)...].split(separator: " ")
      // Fields 14 and 15 of the line (utime, stime) are 11 and 12 after the name.
      if fields.count > 12 {
        counters.cpuTicks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
      }
    }
    if let schedstat = try? readText("/proc/\(pid)/schedstat") {
      counters.cpuNanoseconds = Int64(schedstat.split(separator: " ").first ?? "0") ?? 0
    }
    counters.allThreadsCPUNanoseconds = threadsCPUNanoseconds
    counters.allThreadsWakeups = threadsWakeups
    for line in ((try? readText("/proc/\(pid)/io")) ?? "").split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count == 2 else { continue }
      if fields[0] == "syscr:" { counters.readCalls = Int(fields[1]) ?? 0 }
      if fields[0] == "syscw:" { counters.writeCalls = Int(fields[1]) ?? 0 }
    }
    return counters
  }

  /// The ids of the process's threads now (`/proc/PID/task`).
  private var threadIDs: [String] {
    guard let directory = opendir("/proc/\(pid)/task") else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) {
        String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
      }
      if name.first?.isNumber == true {
        names.append(name)
      }
    }
    return names
  }

  /// The scheduler's CPU time of every thread of the process, in nanoseconds.
  var threadsCPUNanoseconds: Int64 {
    threadIDs.reduce(0) { total, thread in
      let schedstat = (try? readText("/proc/\(pid)/task/\(thread)/schedstat")) ?? ""
      return total + (Int64(schedstat.split(separator: " ").first ?? "0") ?? 0)
    }
  }

  /// The voluntary context switches of every thread of the process.
  var threadsWakeups: Int {
    threadIDs.reduce(0) { total, thread in
      let status = (try? readText("/proc/\(pid)/task/\(thread)/status")) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
      return total + (line.flatMap { Int($0.filter(\.isNumber)) } ?? 0)
    }
  }

  /// The next datagram on the notification socket, split into lines; nil at `deadline`.
  func notification(deadline: Int64) -> [String]? {
    var entry = pollfd(fd: notifySocket, events: Int16(POLLIN), revents: 0)
    let timeout = CInt(max((deadline - MonotonicClock.now()) / 1_000_000, 0))
    guard poll(&entry, 1, timeout) > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(notifySocket, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Keeps `terminal` open until the harness exits.
  static func retire(_ terminal: PseudoTerminal) {
    retiredTerminals.append(terminal)
  }

  private static func datagramSocket(boundTo path: String) throws -> CInt {
    let socket = Glibc.socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
    let bound = withUnixSocketAddress(of: path) { bind(socket, $0, $1) }
    guard socket >= 0, bound == 0 else { throw BenchmarkError(description: "bind \(path)") }
    return socket
  }
}

/// The contents of a (small) file.
func readText(_ path: String) throws -> String {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { throw BenchmarkError(description: "open \(path)") }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { break }
    bytes += buffer[..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

func writeText(_ text: String, to path: String) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  guard fd >= 0 else { throw BenchmarkError(description: "create \(path)") }
  defer { close(fd) }
  let bytes = Array(text.utf8)
  guard write(fd, bytes, bytes.count) == bytes.count else {
    throw BenchmarkError(description: "write \(path)")
  }
}
