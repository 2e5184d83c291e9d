@preconcurrency import Glibc
import LinuxIO

/// One timed key of a key-to-wire run (`Instance.timedKey`).
struct TimedKey {
  /// Just before the `write` of the press, monotonic nanoseconds.
  var start: Int64
  /// The return of the `poll` that found the first byte of the answer.
  var arrival: Int64
  /// The harness found the answer on another processor than the one it wrote the key
  /// from: on this shared machine, the pseudo-terminal's worker (`flush_to_ldisc`) was
  /// woken on the other, idle processor, and the harness followed it there. Such a key
  /// pays two wakeups of an idle processor that a program answering on the same one does
  /// not, whatever the program.
  var crossedProcessors: Bool
}

/// One subject's figures from one key-to-wire run.
struct KeyToWireRun {
  /// Nanoseconds from each key's write to the first byte of its answer.
  var samples: [Int64]
  /// The samples of the keys answered on the harness's own processor.
  var sameProcessorSamples: [Int64]
  /// Nanoseconds of CPU time (`/proc/PID/schedstat`) per timed key, its release included.
  var cpuPerKey: Double
}

/// The benchmarks proper: each drives one or more subjects and returns raw samples.
struct Scenarios {
  var programs: Programs
  /// Scales the run lengths down for a quick check of the harness (`--quick`).
  var scale: Double

  func count(_ full: Int) -> Int { max(Int(Double(full) * scale), 2) }

  // MARK: - Key-to-wire latency

  /// The interval between two keys of one subject.
  static let keyInterval: Int64 = 2_000_000

  /// Nanoseconds from just before the `write` of each key press (its record and its
  /// SYN_REPORT) into a subject's keypad to the return of the `poll` that finds the first
  /// byte of the answer on its display's master side, for every subject in one run:
  /// `warmUp` keys, then `keys` timed keys per subject.
  ///
  /// A subject gets a key every 2 ms on a 1,000,000-baud line (pacing to the wire never
  /// holds a frame back), in blocks of `block` keys that go to the subjects in turn, the
  /// order rotating from one block to the next, so that all three are measured in the
  /// same minute of a shared machine and none always follows the same other. With blocks
  /// of 100 keys a subject has the machine to itself between its keys, as when it is
  /// measured alone; with `block` 1 the subjects are interleaved key by key (one key
  /// every 667 µs, to each every 2 ms), so that between two of its keys the other two
  /// run, and each key finds the caches full of the others' code and data. After the
  /// first byte the harness reads the answer and writes the release (and its
  /// SYN_REPORT) at once, as a key does, untimed; it does nothing else before the next
  /// key's slot, and at the end it checks that every subject shows what its keys should
  /// have made.
  func keyToWire(keys: Int, block: Int, warmUp: Int = 100) throws -> [Subject: KeyToWireRun] {
    precondition(block > 0 && warmUp % block == 0, "the warm-up is made of whole blocks")
    var instances: [Instance] = []
    for subject in Subject.allCases {
      instances.append(try Instance(subject, programs: programs, baud: 1_000_000))
    }
    for instance in instances {
      try instance.waitUntilReady()
    }
    var samples = instances.map { _ in [Int64]() }
    var sameProcessorSamples = samples
    for index in samples.indices {
      samples[index].reserveCapacity(keys)
      sameProcessorSamples[index].reserveCapacity(keys)
    }
    let slot = block == 1 ? Self.keyInterval / Int64(instances.count) : Self.keyInterval
    var next = MonotonicClock.now() + Self.keyInterval
    var cpuBefore = instances.map { _ in Int64(0) }
    let total = warmUp + keys
    for blockStart in stride(from: 0, to: total, by: block) {
      for turn in 0..<instances.count {
        let index = (blockStart / block + turn) % instances.count
        let instance = instances[index]
        for number in blockStart..<min(blockStart + block, total) {
          MonotonicClock.sleep(until: next)
          if number == warmUp {
            cpuBefore[index] = instance.counters.cpuNanoseconds
          }
          let key = try instance.timedKey(number)
          if number >= warmUp {
            samples[index].append(key.arrival - key.start)
            if !key.crossedProcessors {
              sameProcessorSamples[index].append(key.arrival - key.start)
            }
          }
          // A late answer moves the schedule on rather than bunching the keys after it.
          next = max(next + slot, MonotonicClock.now())
        }
      }
    }
    let cpuAfter = instances.map(\.counters.cpuNanoseconds)
    var result: [Subject: KeyToWireRun] = [:]
    for (index, instance) in instances.enumerated() {
      try instance.waitUntilSettled()
      instance.stop()
      result[instance.subject] = KeyToWireRun(
        samples: samples[index], sameProcessorSamples: sameProcessorSamples[index],
        cpuPerKey: Double(cpuAfter[index] - cpuBefore[index]) / Double(keys))
    }
    return result
  }

  // MARK: - Slow-wire staleness

  /// Milliseconds-worth nanoseconds from the last key of each burst of `keys` keys to the
  /// moment the final state has been read off a 9600-baud line, read at 960 bytes/s.
  /// Each burst alternates home +1/-1 and ends with an away key, so the final state
  /// appears only with the answer to the last key.
  func staleness(_ subject: Subject, bursts: Int, keys: Int) throws -> [Int64] {
    let instance = try Instance(subject, programs: programs, baud: 9600)
    var line = PacedLine(instance: instance, bytesPerSecond: 960)
    try line.run(until: { instance.isSettled }, timeout: 15)
    var samples: [Int64] = []
    for _ in 0..<bursts {
      var records: [UInt8] = []
      for index in 0..<(keys - 1) {
        let key: Key = index % 2 == 0 ? .homeUp : .homeDown
        records += instance.expect(key) + Instance.records(key, value: 0)
      }
      let last: Key = instance.away < 99 ? .awayUp : .awayDown
      records += instance.expect(last) + Instance.records(last, value: 0)
      line.send(records)
      let settledAt = try line.run(until: { instance.isSettled }, timeout: 60)
      guard let lastKeyAt = line.sentAt else {
        throw BenchmarkError(description: "\(subject): the burst was not written")
      }
      samples.append(settledAt - lastKeyAt)
      try line.run(until: { false }, timeout: 0.2)
    }
    instance.stop()
    return samples
  }

  // MARK: - Idle and editing

  struct IdleResult {
    /// Wakeups (context switches) per second, one sample per window.
    var wakeupsPerSecond: [Subject: [Double]] = [:]
    /// CPU time over the whole period, nanoseconds.
    var cpu: [Subject: Int64] = [:]
    var residentKilobytes: [Subject: Int] = [:]
    var editingWakeupsPerSecond: [Double] = []
    var editingCPU: Int64 = 0
    /// Involuntary context switches (preemptions) per second while editing.
    var editingPreemptionsPerSecond = 0.0
    var watchdogWakeupsPerSecond: [Double] = []
    var watchdogPings = 0
    var seconds = 0.0
  }

  /// Every subject idle, and a second scoreboardd with a field being edited (its cursor
  /// blinking), and a third with the systemd watchdog on, all at once for `seconds`,
  /// sampled in `windows` windows.
  func idle(seconds: Double, windows: Int, watchdogSeconds: Int) throws -> IdleResult {
    var idle: [Subject: Instance] = [:]
    for subject in Subject.allCases {
      idle[subject] = try Instance(subject, programs: programs, baud: 9600)
    }
    let editing = try Instance(.scoreboardd, programs: programs, baud: 9600)
    let watchdog = try Instance(
      .scoreboardd, programs: programs, baud: 9600,
      environment: ["WATCHDOG_USEC": String(watchdogSeconds * 1_000_000)], notify: true)
    let all = Array(idle.values) + [editing, watchdog]
    for instance in all {
      try instance.waitUntilReady()
    }
    editing.press(.digitOne)  // an edit session: the cursor blinks
    editing.release(.digitOne)
    usleep(300_000)
    for instance in all {
      instance.drain()
    }

    var result = IdleResult(seconds: seconds)
    let window = Int64(seconds / Double(windows) * 1e9)
    var previous = all.map(\.counters)
    let first = previous
    let start = MonotonicClock.now()
    for number in 1...windows {
      let end = start + Int64(number) * window
      while MonotonicClock.now() < end {
        var entries = all.map { pollfd(fd: $0.master, events: Int16(POLLIN), revents: 0) }
        entries.append(pollfd(fd: watchdog.notifySocket, events: Int16(POLLIN), revents: 0))
        let timeout = CInt(max((end - MonotonicClock.now()) / 1_000_000, 0) + 1)
        if poll(&entries, nfds_t(entries.count), timeout) > 0 {
          for instance in all {
            instance.drain()
          }
          while let datagram = watchdog.notification(deadline: 0) {
            result.watchdogPings += datagram.filter { $0 == "WATCHDOG=1" }.count
          }
        }
      }
      let current = all.map(\.counters)
      let perSecond = { (index: Int) -> Double in
        Double(current[index].wakeups - previous[index].wakeups) * 1e9 / Double(window)
      }
      for (index, instance) in all.enumerated() {
        if instance === editing {
          result.editingWakeupsPerSecond.append(perSecond(index))
        } else if instance === watchdog {
          result.watchdogWakeupsPerSecond.append(perSecond(index))
        } else {
          result.wakeupsPerSecond[instance.subject, default: []].append(perSecond(index))
        }
      }
      previous = current
    }
    for (index, instance) in all.enumerated() {
      let cpu = previous[index].cpuNanoseconds - first[index].cpuNanoseconds
      if instance === editing {
        result.editingCPU = cpu
        result.editingPreemptionsPerSecond =
          Double(previous[index].involuntarySwitches - first[index].involuntarySwitches)
          / seconds
      } else if instance !== watchdog {
        result.cpu[instance.subject] = cpu
        result.residentKilobytes[instance.subject] = previous[index].residentKilobytes
      }
    }
    return result
  }

  // MARK: - Flood

  struct FloodRun {
    var keys: Int
    var seconds: Double
    var before: ProcessCounters
    var after: ProcessCounters
    var clockTicksPerSecond: Int

    /// User + system CPU per key from utime + stime, nanoseconds.
    var cpuPerKey: Double {
      Double(after.cpuTicks - before.cpuTicks) * 1e9 / Double(clockTicksPerSecond)
        / Double(keys)
    }
    /// The same from the scheduler's nanosecond count.
    var scheduledPerKey: Double {
      Double(after.cpuNanoseconds - before.cpuNanoseconds) / Double(keys)
    }
    var readsPerKey: Double { Double(after.readCalls - before.readCalls) / Double(keys) }
    var writesPerKey: Double { Double(after.writeCalls - before.writeCalls) / Double(keys) }
    var wakeupsPerKey: Double { Double(after.wakeups - before.wakeups) / Double(keys) }
  }

  /// `runs` floods of `keys` keys (press and release each) written as fast as the keypad
  /// takes them, on a 1,000,000-baud line read as fast as it comes; each flood ends with
  /// an away key whose answer shows that every key was taken. Also the RSS before.
  func flood(_ subject: Subject, runs: Int, keys: Int) throws -> (
    residentBefore: Int, runs: [FloodRun]
  ) {
    let instance = try Instance(subject, programs: programs, baud: 1_000_000)
    try instance.waitUntilReady()
    let residentBefore = instance.counters.residentKilobytes
    let ticks = sysconf(CInt(_SC_CLK_TCK))
    var results: [FloodRun] = []
    for _ in 0..<runs {
      var records: [UInt8] = []
      records.reserveCapacity((keys + 1) * 4 * InputEvent.recordSize)
      for index in 0..<keys {
        let key: Key = index % 2 == 0 ? .homeUp : .homeDown
        records += instance.expect(key) + Instance.records(key, value: 0)
      }
      let last: Key = instance.away < 99 ? .awayUp : .awayDown
      records += instance.expect(last) + Instance.records(last, value: 0)
      let before = instance.counters
      let start = MonotonicClock.now()
      var offset = 0
      let deadline = start + 120_000_000_000
      while offset < records.count || !instance.isSettled {
        guard MonotonicClock.now() < deadline else {
          throw BenchmarkError(description: "\(subject): the flood did not end\n\(instance.log)")
        }
        if offset < records.count {
          offset += instance.writeSome(records, from: offset)
        }
        var entries = [
          pollfd(fd: instance.master, events: Int16(POLLIN), revents: 0),
          pollfd(
            fd: instance.keypad, events: offset < records.count ? Int16(POLLOUT) : 0, revents: 0),
        ]
        _ = poll(&entries, 2, 100)
        instance.drain()
      }
      let seconds = Double(MonotonicClock.now() - start) / 1e9
      usleep(100_000)
      instance.drain()
      results.append(
        FloodRun(
          keys: keys + 1, seconds: seconds, before: before, after: instance.counters,
          clockTicksPerSecond: ticks))
    }
    instance.stop()
    return (residentBefore, results)
  }

  // MARK: - Start-up

  struct StartUp {
    /// exec to READY=1 (scoreboardd only), nanoseconds.
    var ready: Int64?
    /// exec to the first byte on the display: the initial frame, or for the floor the
    /// answer to a key waiting in the keypad.
    var firstByte: Int64
  }

  func startUp(_ subject: Subject) throws -> StartUp {
    let instance = try Instance(
      subject, programs: programs, baud: 9600, notify: subject == .scoreboardd,
      preloadedKeys: subject == .floor ? [.homeUp] : [])
    let deadline = MonotonicClock.now() + 10_000_000_000
    var ready: Int64?
    var firstByte: Int64?
    while firstByte == nil || (subject == .scoreboardd && ready == nil) {
      guard MonotonicClock.now() < deadline else {
        throw BenchmarkError(description: "\(subject) did not start\n\(instance.log)")
      }
      var entries = [pollfd(fd: instance.master, events: Int16(POLLIN), revents: 0)]
      if instance.notifySocket >= 0 {
        entries.append(pollfd(fd: instance.notifySocket, events: Int16(POLLIN), revents: 0))
      }
      guard poll(&entries, nfds_t(entries.count), 100) > 0 else { continue }
      let now = MonotonicClock.now()
      if entries[0].revents != 0, firstByte == nil {
        firstByte = now - instance.spawnedAt
        instance.drain()
      }
      if entries.count > 1, entries[1].revents != 0,
        let datagram = instance.notification(deadline: 0), datagram.contains("READY=1")
      {
        ready = now - instance.spawnedAt
      }
    }
    instance.stop()
    return StartUp(ready: ready, firstByte: firstByte ?? 0)
  }
}

/// A slow serial line between a subject and its module: bytes leave the pseudo-terminal
/// one at a time, each taking 1/`bytesPerSecond` s, as on a UART. A byte that waits in
/// the terminal starts when the previous one has left; one that comes when the line is
/// idle starts when it comes. The module receives each byte when it has fully arrived.
struct PacedLine {
  let instance: Instance
  let byteTime: Int64
  /// When the line finishes the byte it is sending.
  private var freeAt: Int64
  /// Key records still to be written into the keypad.
  private var outgoing: [UInt8] = []
  private var outgoingOffset = 0
  /// When the last of the records given to `send` went into the keypad.
  private(set) var sentAt: Int64?

  init(instance: Instance, bytesPerSecond: Int) {
    self.instance = instance
    byteTime = 1_000_000_000 / Int64(bytesPerSecond)
    freeAt = MonotonicClock.now()
  }

  /// Writes `records` into the keypad while the line runs.
  mutating func send(_ records: [UInt8]) {
    outgoing = records
    outgoingOffset = 0
    sentAt = nil
    feedKeypad()
  }

  private mutating func feedKeypad() {
    guard outgoingOffset < outgoing.count else { return }
    outgoingOffset += instance.writeSome(outgoing, from: outgoingOffset)
    if outgoingOffset == outgoing.count {
      sentAt = MonotonicClock.now()
    }
  }

  /// Runs the line until `condition` holds after a byte has arrived, and every record
  /// has been sent; returns when that byte fully arrived. Throws after `timeout` s,
  /// unless `condition` never holds (a pause), when it returns at the timeout.
  @discardableResult
  mutating func run(until condition: () -> Bool, timeout: Double) throws -> Int64 {
    let deadline = MonotonicClock.now() + Int64(timeout * 1e9)
    if outgoingOffset == outgoing.count, condition() {
      return MonotonicClock.now()
    }
    while true {
      let sending = outgoingOffset < outgoing.count
      let now = MonotonicClock.now()
      if now >= deadline {
        if sending || timeout > 1 {
          throw BenchmarkError(
            description: "\(instance.subject): the slow line did not settle; shows "
              + "\"\(instance.shows)\", expected \"\(instance.expectedText)\"\n\(instance.log)")
        }
        return now
      }
      if now < freeAt {
        // The line is busy: wait for it (briefly while keys are still being written).
        MonotonicClock.sleep(until: sending ? min(freeAt, now + 200_000) : freeAt)
        feedKeypad()
        continue
      }
      let start: Int64
      if let byte = instance.readByte() {
        start = freeAt  // it waited in the terminal
        freeAt = start + byteTime
        MonotonicClock.sleep(until: freeAt)
        instance.receive(byte)
      } else {
        var entries = [
          pollfd(fd: instance.master, events: Int16(POLLIN), revents: 0),
          pollfd(fd: instance.keypad, events: sending ? Int16(POLLOUT) : 0, revents: 0),
        ]
        let wait = CInt(min(max((deadline - now) / 1_000_000, 0) + 1, 100))
        guard poll(&entries, 2, wait) > 0 else { continue }
        feedKeypad()
        guard entries[0].revents != 0, let byte = instance.readByte() else { continue }
        start = MonotonicClock.now()  // it came to an idle line
        freeAt = start + byteTime
        MonotonicClock.sleep(until: freeAt)
        instance.receive(byte)
      }
      feedKeypad()
      if outgoingOffset == outgoing.count, condition() {
        return freeAt
      }
    }
  }
}
