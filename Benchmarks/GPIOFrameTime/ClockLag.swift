@preconcurrency import Glibc
import LinuxIO
import ProtocolDecoders
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDaemon
import ScoreboardSettings
import TestSupport

/// GPIO lines in memory that note the monotonic instant of every level change: what a
/// logic analyser on the lines would capture. Only the daemon's thread touches them
/// while it runs; they are read after it has stopped.
final class TimedGPIOLines: GPIOLines {
  let consumer: String
  private var settings: [GPIOLineSettings]
  private var levels: [Bool]
  /// Every change of a line's level, in order.
  private(set) var edges: [(line: Int, high: Bool, at: Int64)] = []

  init(settings: [GPIOLineSettings], consumer: String) {
    self.consumer = consumer
    self.settings = settings
    levels = settings.map { $0.direction == .output ? $0.initialValue : true }
    edges.reserveCapacity(1 << 20)
  }

  var count: Int { settings.count }

  private func level(_ line: Int, _ high: Bool) {
    guard levels[line] != high else { return }
    levels[line] = high
    edges.append((line, high, MonotonicClock.now()))
  }

  func set(_ line: Int, _ value: Bool) throws {
    level(line, value)
  }

  /// An input reads low: a TM1637 acknowledging on DIO.
  func get(_ line: Int) throws -> Bool {
    settings[line].direction == .input ? false : levels[line]
  }

  func reconfigure(_ line: Int, as settings: GPIOLineSettings) throws {
    self.settings[line] = settings
    // An input is pulled up: the line goes high unless a device drives it.
    level(line, settings.direction == .output ? settings.initialValue : true)
  }

  var eventDescriptor: FileDescriptor? { nil }
  func readEvents() throws -> [GPIOEdgeEvent] { [] }
  func release() {}
}

final class TimedGPIOBackend: GPIOBackend {
  private(set) var requests: [TimedGPIOLines] = []
  var supportsKernelDebounce: Bool { true }

  func request(
    _ lines: [(address: GPIOLine, settings: GPIOLineSettings)], consumer: String
  ) throws -> any GPIOLines {
    let request = TimedGPIOLines(settings: lines.map(\.settings), consumer: consumer)
    requests.append(request)
    return request
  }
}

/// Starts the daemon's clock through its control socket, and again after each zero,
/// from a POSIX thread of its own, then stops the daemon with SIGTERM.
final class ClockDriver: @unchecked Sendable {
  // `periods` is written by the thread and read after `pthread_join`.
  private let folder: String
  private let length: String
  private let seconds: Double
  /// The start instant and starting time of each run of the clock, from the state file.
  private(set) var periods: [(start: Int64, time: Int64)] = []
  private(set) var failure: String?
  /// When the run ended, just before the SIGTERM: the daemon's final frames at its stop
  /// are not changes of the clock.
  private(set) var endedAt: Int64 = .max
  private var thread = pthread_t()

  init(folder: String, length: String, seconds: Double) {
    self.folder = folder
    self.length = length
    self.seconds = seconds
  }

  func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { context in
        let driver = Unmanaged<ClockDriver>.fromOpaque(context!).takeRetainedValue()
        driver.run()
        driver.endedAt = MonotonicClock.now()
        kill(getpid(), SIGTERM)
        return nil
      }, context)
    precondition(created == 0, "pthread_create failed")
  }

  func join() {
    pthread_join(thread, nil)
  }

  private func run() {
    let readyBy = MonotonicClock.now() + 10_000_000_000
    while access(folder + "/control", F_OK) != 0 {
      guard MonotonicClock.now() < readyBy else {
        failure = "no control socket"
        return
      }
      usleep(10_000)
    }
    usleep(300_000)
    let end = MonotonicClock.now() + Int64(seconds * 1e9)
    while MonotonicClock.now() < end {
      let client = try? ControlClient(path: folder + "/control")
      let answers = ["set game \(length)", "start"].compactMap { client?.request($0) }
      guard answers.count == 2, answers.allSatisfy({ $0.hasPrefix("ok") }) else {
        failure = "start: \(answers)"
        return
      }
      guard let period = stateFileClock() else {
        failure = "no running clock in the state file"
        return
      }
      periods.append(period)
      // The zero, the horn, and a little more.
      MonotonicClock.sleep(until: min(end, period.start + period.time + 700_000_000))
    }
  }

  /// The start instant and the time of the running clock in the state file.
  private func stateFileClock() -> (start: Int64, time: Int64)? {
    guard
      let bytes = try? TwoSlotFile(path: folder + "/state").read(limit: 1 << 16),
      let clock = try? SavedState(parsing: String(decoding: bytes, as: UTF8.self)).clocks["game"],
      let start = clock.startedAt
    else { return nil }
    return (start.nanoseconds, clock.time.nanoseconds)
  }
}

/// The in-process daemon with a TM1637 clock module and a GPIO horn on timed in-memory
/// lines: the lag of each digit change and of the horn at each zero.
struct ClockLag {
  /// Nanoseconds from each expected change of the text to the first line edge of the
  /// frame that shows it, with the expected instant.
  var changes: [(expected: Int64, lag: Int64)] = []
  /// Nanoseconds from each zero to the horn's line going high.
  var horn: [Int64] = []
  var periods = 0
  var length = ""
  var violations: [String] = []

  /// Must run on the main thread before any other thread is started that is still
  /// running: the daemon blocks SIGTERM in this thread (its signal queue), and the
  /// driver's thread inherits the block.
  static func measure(seconds: Double) throws -> ClockLag {
    // A 59.9 clock gives a zero a minute; a short run gets a 9.9 clock, for its zeros.
    let length = seconds >= 120 ? "59.9" : "9.9"
    var template = Array("/tmp/scoreboardd-clock-bench-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    let folder = String(cString: made)
    defer {
      for name in ["state", "control", "scoreboardd.conf"] {
        unlink(folder + "/" + name)
      }
      rmdir(folder)
    }
    let text = """
      [scoreboard]
      state-file = \(folder)/state
      control-socket = \(folder)/control
      log-level = warning

      [display clock]
      driver = tm1637
      digits = 4
      clk = GPIO23
      dio = GPIO24
      colon = yes

      [field game]
      type = clock
      display = clock
      position = 1
      length = \(length)
      tenths-below = always

      [horn siren]
      driver = gpio
      line = GPIO5
      clocks = game
      duration = 300ms

      """
    let configuration = try Configuration.parse(text, path: folder + "/scoreboardd.conf")
    let backend = TimedGPIOBackend()
    let logger = Logger(programName: "GPIOFrameBenchmark", minimumLevel: .warning)
    let daemon = try Daemon(configuration: configuration, gpio: backend, logger: logger)
    let driver = ClockDriver(folder: folder, length: length, seconds: seconds)
    driver.start()
    try daemon.run()
    driver.join()
    if let failure = driver.failure {
      throw BenchmarkFailure(description: failure)
    }

    var result = ClockLag(periods: driver.periods.count, length: length)
    guard let display = backend.requests.first(where: { $0.count == 2 }),
      let horn = backend.requests.first(where: { $0.count == 1 })
    else { throw BenchmarkFailure(description: "no TM1637 and horn lines requested") }
    let periods = driver.periods
    func period(at instant: Int64) -> (start: Int64, time: Int64)? {
      periods.last { $0.start <= instant }
    }

    // The frames: every update starts with a data command (`0x40` or `0x44`); a frame runs
    // from the START of that transaction to the next frame's, and what it shows is the
    // grids at its end, so that a frame that writes one grid at a time is not taken for
    // several changes, and a late frame is told apart from the next however close it
    // comes.
    var decoder = TM1637Decoder()
    var clockHigh = true
    var dataHigh = true
    var starts: [Int64] = []
    var frameStart: Int64?
    var lastText = ""
    func frameEnded() {
      guard let first = frameStart, first < driver.endedAt else { return }
      let cells = decoder.grids.prefix(4).map { Segments(rawValue: $0 & 0x7F) }
      let text = SegmentFont.text(for: Array(cells))
      guard text != lastText else { return }
      lastText = text
      let digits = text.filter { $0 != " " }
      guard let tenths = Int64(digits), let run = period(at: first) else { return }
      let shown = tenths * 100_000_000
      guard shown < run.time else { return }
      let expected = run.start + run.time - shown
      result.changes.append((expected, first - expected))
    }
    for edge in display.edges {
      if edge.line == 0 {
        clockHigh = edge.high
      } else {
        if !edge.high && dataHigh && clockHigh {
          starts.append(edge.at)  // START: DIO falls while CLK is high
        }
        dataHigh = edge.high
      }
      let completed = decoder.transactions.count
      decoder.receive(line: edge.line, high: edge.high)
      guard decoder.transactions.count > completed, let command = decoder.transactions.last?.first,
        command == 0x40 || command == 0x44, completed < starts.count
      else { continue }
      frameEnded()
      frameStart = starts[completed]
    }
    frameEnded()
    result.violations = decoder.violations
    for run in periods {
      let zero = run.start + run.time
      if let on = horn.edges.first(where: { $0.high && $0.at >= run.start }),
        on.at < zero + 5_000_000_000
      {
        result.horn.append(on.at - zero)
      }
    }
    return result
  }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
  var description: String
}
