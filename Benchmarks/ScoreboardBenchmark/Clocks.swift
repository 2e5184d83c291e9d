@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import TestSupport

/// A game clock for scoreboardd to show on its S7S module (`[field game] type = clock`).
struct ClockSetup {
  /// Its `length`, as the configuration writes it (`59.9`, `10:00`).
  var length: String
  /// Its `tenths-below`: `always` (the text changes every tenth) or `never` (every
  /// second).
  var tenthsBelow: String
  /// An ice hockey board: two penalty slots a team on a second display (the terminal's,
  /// to /dev/null), and two penalties of each team given before the first start, which
  /// serve for the whole run (the clock is set back to its length at each zero).
  var penalties = false
  /// A basketball board: a 24 s shot clock that runs with the game clock, on a second
  /// display (the terminal's, to /dev/null).
  var shotClock = false

  var showsTenths: Bool { tenthsBelow == "always" }

  /// The penalties given before the first start.
  static let penaltyRequests = [
    "penalty add home 12 5:00", "penalty add home 34 5:00", "penalty add away 56 5:00",
    "penalty add away 78 5:00",
  ]

  /// The time the module shows, from its four cells' digits (`599` is 59.9 in tenths,
  /// ` 959` is 9:59 in seconds); nil for anything else.
  func shownTime(_ cells: String) -> Int64? {
    let digits = cells.filter { $0 != " " }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let number = Int64(digits)
    else { return nil }
    if showsTenths {
      return number * 100_000_000
    }
    return ((number / 100) * 60 + number % 100) * 1_000_000_000
  }
}

/// One change of what a clock's module shows, as it reached the master side.
struct ClockChange {
  /// When the text should have changed: the clock's start instant plus the time from its
  /// length to the time shown (counting down, the time shown is rounded up).
  var expected: Int64
  /// When the change's first byte came out of the master side, minus `expected`: the
  /// first byte of the first command of the burst that changed what the module shows.
  var lag: Int64
  /// The text skipped a value: the change came so late that the next one followed
  /// within the burst's gap, or the daemon drew the later value at once. It is timed
  /// from the value due first, whose bytes came first.
  var skipped = false
  /// Bytes that changed nothing came first in the burst (a refresh the change ran into);
  /// the change is timed from its own first command, not from them.
  var afterUnchangedBytes = false
}

/// The clock scenario's figures.
struct ClockRunResult {
  var seconds: Double
  /// The changes of the clock showing tenths, and of the one showing seconds.
  var tenths: [ClockChange] = []
  var wholeSeconds: [ClockChange] = []
  /// How often each clock was started (it is set and started again at zero).
  var tenthsStarts = 0
  var secondsStarts = 0
  /// The clock in tenths of a hockey board with 2 + 2 penalties serving.
  var hockey: [ClockChange] = []
  var hockeySwitches: (voluntary: Double, involuntary: Double) = (0, 0)
  var hockeyCPU: Int64 = 0
  /// Context switches per second, voluntary and involuntary, of the daemon whose clock
  /// shows tenths, seconds, or stands still.
  var tenthsSwitches: (voluntary: Double, involuntary: Double) = (0, 0)
  var secondsSwitches: (voluntary: Double, involuntary: Double) = (0, 0)
  var stoppedSwitches: (voluntary: Double, involuntary: Double) = (0, 0)
  /// CPU time of each over the run, nanoseconds (`/proc/PID/schedstat`).
  var tenthsCPU: Int64 = 0
  var secondsCPU: Int64 = 0
  var stoppedCPU: Int64 = 0
  /// The C floor's ticks, a byte every tenth on a kernel timer set to its instant (`floor
  /// --ticks`): how late this machine lets any clock's frame come.
  var floorTicks: [ClockChange] = []
  /// Bytes each running clock's module received per change.
  var tenthsBytesPerChange = 0.0
  var secondsBytesPerChange = 0.0
}

/// A clock's module as the harness reads it: bytes are grouped into changes (bursts of
/// bytes less than `gap` apart; the text changes at most every 100 ms), and each change
/// is timed from the first byte of its first command that changed what the module shows
/// (the module's commands decoded byte by byte), so that bytes which changed nothing
/// before it in the burst (a refresh) do not date it.
final class ClockWatch {
  let instance: Instance
  let clock: ClockSetup
  /// The start instant and starting time of the clock's current run, from the state file.
  var period: (start: Int64, time: Int64)?
  var changes: [ClockChange] = []
  var starts = 0
  var bytesInChanges = 0
  private var burstStart: Int64?
  private var lastByte: Int64 = 0
  private var burstBytes = 0
  /// When the first byte of the command being received came.
  private var commandStart: Int64 = 0
  /// When the first command of the burst that changed the module's digits or points
  /// began; nil while none has.
  private var changeStart: Int64?
  private(set) var lastText = ""
  /// The time the module last showed in the clock's current run; nil before its first
  /// change.
  private var lastShown: Int64?
  /// When the clock showed zero, so that it is set and started again.
  private(set) var zeroAt: Int64?
  static let gap: Int64 = 20_000_000

  init(_ instance: Instance, clock: ClockSetup) {
    self.instance = instance
    self.clock = clock
  }

  /// Takes what the master side has, noted as arriving at `now`.
  func read(at now: Int64) {
    let bytes = instance.takeBytes()
    guard !bytes.isEmpty else { return }
    if burstStart == nil {
      burstStart = now
    }
    burstBytes += bytes.count
    lastByte = now
    for byte in bytes {
      if !instance.emulator.isAwaitingArgument {
        commandStart = now
      }
      let digits = instance.emulator.digits
      let points = instance.emulator.points
      instance.receive(byte)
      if changeStart == nil,
        instance.emulator.digits != digits || instance.emulator.points != points
      {
        changeStart = commandStart
      }
    }
  }

  /// Notes bytes that another reader took from the master side, as arriving at `now`; a
  /// change they make is timed from the burst's first byte.
  func noteBytes(at now: Int64) {
    if burstStart == nil {
      burstStart = now
    }
    lastByte = now
  }

  /// The changes recorded so far.
  var changeCount: Int { changes.count }

  /// Closes a burst that has been quiet for `gap`: a change, if the text changed.
  func settle(at now: Int64, recording: Bool) {
    guard let first = burstStart, now - lastByte >= Self.gap else { return }
    burstStart = nil
    let start = changeStart ?? first
    changeStart = nil
    let bytes = burstBytes
    burstBytes = 0
    let text = instance.shows
    guard text != lastText else { return }
    lastText = text
    guard let shown = clock.shownTime(text), let period, shown < period.time else { return }
    // The value due first after the last one shown: a burst whose text skipped values is
    // timed from it, so that a change that ran into the next is not dated by the later
    // one's instant (which read as early).
    let step: Int64 = clock.showsTenths ? 100_000_000 : 1_000_000_000
    let due = max(shown, (lastShown ?? period.time) - step)
    lastShown = shown
    let expected = period.start + (period.time - due)
    if recording {
      changes.append(
        ClockChange(
          expected: expected, lag: start - expected, skipped: due != shown,
          afterUnchangedBytes: start != first))
      bytesInChanges += bytes
    }
    if shown == 0 {
      zeroAt = now
    }
  }

  /// Sets the clock to its length and starts it through the control socket; reads the
  /// start instant and the time from the state file.
  func start() throws {
    let client = try ControlClient(path: instance.controlPath)
    let requests =
      ["set game \(clock.length)"]
      + (clock.penalties && starts == 0 ? ClockSetup.penaltyRequests : []) + ["start"]
    let answers = requests.compactMap { client.request($0) }
    guard answers.count == requests.count, answers.allSatisfy({ $0.hasPrefix("ok") }) else {
      throw BenchmarkError(description: "start: \(answers)\n\(instance.log)")
    }
    guard let bytes = try? TwoSlotFile(path: instance.statePath).read(limit: 1 << 16),
      let clock = try? SavedState(parsing: String(decoding: bytes, as: UTF8.self)).clocks["game"],
      let start = clock.startedAt
    else {
      throw BenchmarkError(description: "no running clock in the state file")
    }
    period = (start: start.nanoseconds, time: clock.time.nanoseconds)
    lastShown = nil
    zeroAt = nil
    starts += 1
  }
}

/// The C floor's clock (`floor --ticks`) as the harness reads it: its n-th byte is due at
/// the floor's start instant plus n periods.
final class TickWatch {
  let instance: Instance
  private(set) var ticks: [ClockChange] = []
  private var received: Int64 = 0

  init(_ instance: Instance) {
    self.instance = instance
  }

  /// Takes what the master side has, noted as arriving at `now`; bytes read while
  /// `recording` are timed against their instants.
  func read(at now: Int64, recording: Bool) {
    guard let schedule = instance.floorTicks else { return }
    for _ in instance.takeBytes() {
      let expected = schedule.start + received * schedule.period
      received += 1
      if recording {
        ticks.append(ClockChange(expected: expected, lag: now - expected))
      }
    }
  }
}

extension Scenarios {
  /// Reads every module, and the floor's ticks when given, until `end`, closing changes
  /// as they settle.
  private static func serve(
    until end: Int64, recording: Bool, instances: [Instance], watches: [ClockWatch],
    stopped: Instance, floor: TickWatch? = nil
  ) {
    while true {
      let now = MonotonicClock.now()
      if now >= end { break }
      var entries = (instances + (floor.map { [$0.instance] } ?? [])).map {
        pollfd(fd: $0.master, events: Int16(POLLIN), revents: 0)
      }
      let timeout = CInt(max(min((end - now) / 1_000_000, 5), 1))
      let ready = poll(&entries, nfds_t(entries.count), timeout)
      let arrived = MonotonicClock.now()
      if ready > 0 {
        // Only the modules the poll found readable: bytes that another one wrote since
        // (its daemon may take the harness's processor meanwhile) arrived after
        // `arrived`, and are read with the next poll's time.
        for watch in watches
        where entries.contains(where: { $0.fd == watch.instance.master && $0.revents != 0 }) {
          watch.read(at: arrived)
        }
        if let floor,
          entries.contains(where: { $0.fd == floor.instance.master && $0.revents != 0 })
        {
          floor.read(at: arrived, recording: recording)
        }
        stopped.drain()
      }
      for watch in watches {
        watch.settle(at: arrived, recording: recording)
      }
    }
  }

  /// Four scoreboardd at once, each with a game clock on an S7S module at 9600 baud:
  /// one counting down 59.9 with tenths (every tenth changes the text; set and started
  /// again at zero), one counting down 10:00 in whole seconds, one stopped, and a hockey
  /// board; beside them the C floor's ticks, a byte at every tenth; for `seconds`. Every
  /// change of the running modules and every tick is timed from its first byte; the
  /// daemons' context switches and CPU are counted over the run.
  func clocks(seconds: Double) throws -> ClockRunResult {
    let tenthsClock = ClockSetup(length: "59.9", tenthsBelow: "always")
    let secondsClock = ClockSetup(length: "10:00", tenthsBelow: "never")
    let tenths = ClockWatch(
      try Instance(.scoreboardd, programs: programs, baud: 9600, clock: tenthsClock),
      clock: tenthsClock)
    let wholeSeconds = ClockWatch(
      try Instance(.scoreboardd, programs: programs, baud: 9600, clock: secondsClock),
      clock: secondsClock)
    let stopped = try Instance(.scoreboardd, programs: programs, baud: 9600, clock: secondsClock)
    var hockeyClock = tenthsClock
    hockeyClock.penalties = true
    let hockey = ClockWatch(
      try Instance(.scoreboardd, programs: programs, baud: 9600, clock: hockeyClock),
      clock: hockeyClock)
    let watches = [tenths, wholeSeconds, hockey]
    let instances = [tenths.instance, wholeSeconds.instance, stopped, hockey.instance]

    // Wait for the control sockets and the first frames.
    let readyBy = MonotonicClock.now() + 10_000_000_000
    while instances.contains(where: { access($0.controlPath, F_OK) != 0 }) {
      guard MonotonicClock.now() < readyBy else {
        throw BenchmarkError(description: "no control socket\n\(tenths.instance.log)")
      }
      Self.serve(
        until: MonotonicClock.now() + 20_000_000, recording: false, instances: instances,
        watches: watches,
        stopped: stopped)
    }
    Self.serve(
      until: MonotonicClock.now() + 300_000_000, recording: false, instances: instances,
      watches: watches,
      stopped: stopped)

    var result = ClockRunResult(seconds: seconds)
    let before = instances.map(\.counters)
    let begin = MonotonicClock.now()
    let end = begin + Int64(seconds * 1e9)
    try tenths.start()
    // Half a tenth later, so that the two modules' changes do not come at once.
    Self.serve(
      until: MonotonicClock.now() + 50_000_000, recording: true, instances: instances,
      watches: watches,
      stopped: stopped)
    try wholeSeconds.start()
    // A quarter of a tenth after the first: its changes come apart from the others'.
    Self.serve(
      until: MonotonicClock.now() + 25_000_000, recording: true, instances: instances,
      watches: watches,
      stopped: stopped)
    try hockey.start()
    // The floor's ticks come a quarter of a tenth after the first clock's changes, from
    // half a second on.
    let tenth: Int64 = 100_000_000
    let phase = (tenths.period?.start ?? MonotonicClock.now()) + tenth / 4
    let firstTick = phase + ((MonotonicClock.now() + 5 * tenth - phase) / tenth + 1) * tenth
    let floor = TickWatch(
      try Instance(.floor, programs: programs, baud: 9600, floorTicks: (firstTick, tenth)))
    while MonotonicClock.now() < end {
      Self.serve(
        until: min(end, MonotonicClock.now() + 100_000_000), recording: true, instances: instances,
        watches: watches,
        stopped: stopped, floor: floor)
      for watch in watches {
        if let zero = watch.zeroAt, MonotonicClock.now() - zero > 200_000_000 {
          try watch.start()
        }
      }
    }
    let elapsed = Double(MonotonicClock.now() - begin) / 1e9
    let after = instances.map(\.counters)
    let rates = { (index: Int) -> (voluntary: Double, involuntary: Double) in
      (
        Double(after[index].voluntarySwitches - before[index].voluntarySwitches) / elapsed,
        Double(after[index].involuntarySwitches - before[index].involuntarySwitches) / elapsed
      )
    }
    result.seconds = elapsed
    result.tenthsSwitches = rates(0)
    result.secondsSwitches = rates(1)
    result.stoppedSwitches = rates(2)
    result.tenthsCPU = after[0].cpuNanoseconds - before[0].cpuNanoseconds
    result.secondsCPU = after[1].cpuNanoseconds - before[1].cpuNanoseconds
    result.stoppedCPU = after[2].cpuNanoseconds - before[2].cpuNanoseconds
    result.hockeySwitches = rates(3)
    result.hockeyCPU = after[3].cpuNanoseconds - before[3].cpuNanoseconds
    result.hockey = hockey.changes
    result.floorTicks = floor.ticks
    result.tenths = tenths.changes
    result.wholeSeconds = wholeSeconds.changes
    result.tenthsStarts = tenths.starts
    result.secondsStarts = wholeSeconds.starts
    result.tenthsBytesPerChange =
      Double(tenths.bytesInChanges) / Double(max(tenths.changes.count, 1))
    result.secondsBytesPerChange =
      Double(wholeSeconds.bytesInChanges) / Double(max(wholeSeconds.changes.count, 1))
    for instance in instances + [floor.instance] {
      instance.stop()
    }
    return result
  }
}

/// The figures of a series of clock changes: lag percentiles in µs and its drift.
struct LagSummary {
  var count: Int
  var p50: Double
  var p99: Double
  var max: Double
  var min: Double
  /// Least-squares slope of the lag over the run, µs per minute.
  var slope: Double
  /// Mean lag over the first and the last `window` seconds, µs.
  var firstMean: Double
  var lastMean: Double
  var window: Double

  init?(_ changes: [ClockChange], seconds: Double) {
    guard changes.count >= 2 else { return nil }
    let lags = changes.map(\.lag).sorted()
    count = changes.count
    p50 = Double(percentile(lags, 0.5)) / 1000
    p99 = Double(percentile(lags, 0.99)) / 1000
    max = Double(lags.last!) / 1000
    min = Double(lags.first!) / 1000
    let origin = changes[0].expected
    let xs = changes.map { Double($0.expected - origin) / 60e9 }
    let ys = changes.map { Double($0.lag) / 1000 }
    let meanX = xs.reduce(0, +) / Double(xs.count)
    let meanY = ys.reduce(0, +) / Double(ys.count)
    var numerator = 0.0
    var denominator = 0.0
    for (x, y) in zip(xs, ys) {
      numerator += (x - meanX) * (y - meanY)
      denominator += (x - meanX) * (x - meanX)
    }
    slope = denominator > 0 ? numerator / denominator : 0
    let span = Swift.min(60, seconds / 5)
    window = span
    let last = changes.last!.expected
    let first = changes.filter { Double($0.expected - origin) / 1e9 < span }.map(\.lag)
    let final = changes.filter { Double(last - $0.expected) / 1e9 < span }.map(\.lag)
    firstMean = Double(first.reduce(0, +)) / Double(Swift.max(first.count, 1)) / 1000
    lastMean = Double(final.reduce(0, +)) / Double(Swift.max(final.count, 1)) / 1000
  }
}

/// The clock section of the report.
func clockReport(_ result: ClockRunResult) -> String {
  var text = "## Game clock on an S7S at 9600 baud\n\n"
  text +=
    "Four scoreboardd at once for \(format(result.seconds, 0)) s, each with an S7S module on "
    + "a pseudo-terminal (Benchmarks/README.md): a clock counting down 59.9 with "
    + "`tenths-below = always` (set and started again at zero: \(result.tenthsStarts) "
    + "starts), one counting down 10:00 with `tenths-below = never` "
    + "(\(result.secondsStarts) starts), one stopped, and a hockey board: the first one's "
    + "clock with 2 + 2 penalties serving on a second display. Lag: from the instant the text "
    + "should change (start instant + length − time shown) to the first byte of the "
    + "change on the master side. The floor is a C program that writes one byte at "
    + "every tenth, on a kernel timer set to its instant (`floor --ticks`), read by the same "
    + "harness: how late this machine lets any clock's frame come.\n\n"
  text +=
    "| clock | changes | lag p50 (µs) | p99 (µs) | max (µs) | min (µs) "
    + "| drift (µs/min, least squares) | mean lag first / last window (µs) | bytes per change |\n"
  text += "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
  for (name, changes, bytes) in [
    ("tenths (every 100 ms)", result.tenths, result.tenthsBytesPerChange),
    ("seconds (every 1 s)", result.wholeSeconds, result.secondsBytesPerChange),
    ("hockey: tenths, 2 + 2 penalties serving", result.hockey, result.tenthsBytesPerChange),
    ("floor (C): a byte every tenth on its instant", result.floorTicks, 1),
  ] {
    guard let lag = LagSummary(changes, seconds: result.seconds) else {
      text += "| \(name) | \(changes.count) | – | – | – | – | – | – | – |\n"
      continue
    }
    text +=
      "| \(name) | \(lag.count) | \(format(lag.p50)) | \(format(lag.p99)) | \(format(lag.max)) "
      + "| \(format(lag.min)) | \(format(lag.slope, 2)) "
      + "| \(format(lag.firstMean)) / \(format(lag.lastMean)) (\(format(lag.window, 0)) s) "
      + "| \(format(bytes, 1)) |\n"
  }
  let skipped = [result.tenths, result.wholeSeconds, result.hockey].map {
    $0.filter(\.skipped).count
  }
  let afterUnchanged = [result.tenths, result.wholeSeconds, result.hockey].map {
    $0.filter(\.afterUnchangedBytes).count
  }
  text +=
    "\nChanges whose text skipped a value (one so late that the next came within "
    + "\(ClockWatch.gap / 1_000_000) ms of it, timed from the value due first): "
    + "tenths \(skipped[0]), seconds \(skipped[1]), hockey \(skipped[2]). Changes whose "
    + "burst began with bytes that changed nothing (a refresh; timed from the change's own "
    + "first command): tenths \(afterUnchanged[0]), seconds \(afterUnchanged[1]), "
    + "hockey \(afterUnchanged[2]).\n"
  text += "\n"
  text +=
    "| scoreboardd | voluntary switches/s | involuntary switches/s | total/s "
    + "| CPU over the run (ms) |\n"
  text += "| --- | --- | --- | --- | --- |\n"
  for (name, switches, cpu) in [
    ("clock running, tenths", result.tenthsSwitches, result.tenthsCPU),
    ("clock running, seconds", result.secondsSwitches, result.secondsCPU),
    ("clock stopped", result.stoppedSwitches, result.stoppedCPU),
    ("hockey: clock in tenths, 2 + 2 penalties serving", result.hockeySwitches, result.hockeyCPU),
  ] {
    text +=
      "| \(name) | \(format(switches.voluntary, 2)) | \(format(switches.involuntary, 2)) "
      + "| \(format(switches.voluntary + switches.involuntary, 2)) "
      + "| \(format(Double(cpu) / 1e6, 1)) |\n"
  }
  let extra = Double(result.hockeyCPU - result.tenthsCPU) / 1e6 / max(result.seconds, 1)
  text +=
    "\nThe hockey board's penalties cost \(format(extra, 3)) ms of CPU per second more than "
    + "the same clock alone, with \(format(result.hockeySwitches.voluntary / max(result.tenthsSwitches.voluntary, 0.001), 2))x "
    + "its voluntary switches: a penalty's seconds change with the clock's tenths, so "
    + "they wake the loop no more often.\n"
  return text
}
