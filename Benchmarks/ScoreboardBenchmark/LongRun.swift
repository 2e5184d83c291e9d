@preconcurrency import Glibc
import LinuxIO

/// Reads a subject's display from a POSIX thread of its own, as an outside reader of
/// the line does: it sleeps in `poll` on the master side, drains whatever has come
/// and notes when each read found bytes.
final class DrainingReader: @unchecked Sendable {
  // `arrivals` is written by the thread and read after `pthread_join`, which orders them;
  // the thread alone touches the instance's display side meanwhile.
  private let instance: Instance
  private var arrivals: [Int64] = []
  private let stopPipe: (read: CInt, write: CInt)
  private var thread = pthread_t()

  init(_ instance: Instance, expectedReads: Int) {
    self.instance = instance
    arrivals.reserveCapacity(expectedReads * 2)
    var ends: [CInt] = [0, 0]
    precondition(pipe(&ends) == 0, "pipe")
    stopPipe = (ends[0], ends[1])
  }

  func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { context in
        let reader = Unmanaged<DrainingReader>.fromOpaque(context!).takeRetainedValue()
        reader.run()
        return nil
      }, context)
    precondition(created == 0, "pthread_create failed")
  }

  /// How long the thread, asked to stop, still waits for the answer to the last key.
  static let lastAnswerTimeout: Int64 = 1_000_000_000

  /// Stops the thread once a read after `lastWrite` found bytes (the answer to the last
  /// key, however late the machine makes it), or `lastAnswerTimeout` after the asking;
  /// returns when each read that found bytes returned.
  func stop(afterAnAnswerTo lastWrite: Int64) -> [Int64] {
    var instant = lastWrite
    _ = withUnsafeBytes(of: &instant) { write(stopPipe.write, $0.baseAddress, $0.count) }
    pthread_join(thread, nil)
    close(stopPipe.read)
    close(stopPipe.write)
    return arrivals
  }

  private func run() {
    var entries = [
      pollfd(fd: instance.master, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
    ]
    // Once asked to stop: the last key's write, and when to stop waiting for its answer.
    var stopping: (lastWrite: Int64, deadline: Int64)?
    while true {
      var timeout: CInt = -1
      if let stopping {
        if let last = arrivals.last, last > stopping.lastWrite { return }
        let remaining = stopping.deadline - MonotonicClock.now()
        if remaining <= 0 { return }
        timeout = CInt(remaining / 1_000_000) + 1
      }
      guard poll(&entries, 2, timeout) > 0 else { continue }
      if entries[0].revents != 0 {
        // Each read that finds bytes is an arrival, stamped when it returns: bytes that
        // come while the reader drains (the next key's answer) are found by a later read
        // of the same drain, never dated before their key was written.
        while instance.readOnce() > 0 {
          arrivals.append(MonotonicClock.now())
        }
      }
      if entries[1].revents != 0, stopping == nil {
        var lastWrite: Int64 = 0
        _ = withUnsafeMutableBytes(of: &lastWrite) {
          read(stopPipe.read, $0.baseAddress, $0.count)
        }
        stopping = (lastWrite, MonotonicClock.now() + Self.lastAnswerTimeout)
        entries[1].events = 0
      }
    }
  }
}

/// A long run of one subject: its key-to-wire samples and CPU per key.
struct LongRun {
  var samples: [Int64]
  /// Nanoseconds of CPU per key, summed over every thread of the subject.
  var cpuPerKey: Double
}

extension Scenarios {
  /// The subjects of the long run: scoreboardd with a state file (as installed: a key's
  /// change is written to it), scoreboardd without one, the peer, the floor, and the
  /// floor that saves its presses as often as scoreboardd saves its state (`floor
  /// --save`), the reference of scoreboardd with a state file.
  enum LongRunSubject: String, CaseIterable {
    case scoreboardd = "scoreboardd, state file"
    case scoreboarddWithoutStateFile = "scoreboardd, state-file = none"
    case peer = "peer"
    case floor = "floor"
    case savingFloor = "floor, saving"

    var subject: Subject {
      switch self {
      case .scoreboardd, .scoreboarddWithoutStateFile: .scoreboardd
      case .peer: .peer
      case .floor, .savingFloor: .floor
      }
    }

    /// Whether the subject keeps a state file.
    var keepsState: Bool { self == .scoreboardd || self == .savingFloor }
  }

  /// `keys` keys in a row for each subject in turn, one every 2 ms, each press written
  /// with its release in one write (as a keypad read late delivers them), while a thread
  /// of the harness drains the display's line as bytes come (`DrainingReader`). A key's
  /// sample is from just before its write to the return of the first read after it that
  /// found bytes. After `warmUp` keys.
  func keyToWireLongRun(keys: Int, warmUp: Int = 100) throws -> [LongRunSubject: LongRun] {
    var result: [LongRunSubject: LongRun] = [:]
    for kind in LongRunSubject.allCases {
      let instance = try Instance(
        kind.subject, programs: programs, baud: 1_000_000,
        keepsState: kind.keepsState)
      try instance.waitUntilReady()
      let reader = DrainingReader(instance, expectedReads: warmUp + keys)
      reader.start()
      var written: [Int64] = []
      written.reserveCapacity(keys)
      var cpuBefore: Int64 = 0
      var next = MonotonicClock.now() + Self.keyInterval
      for number in 0..<(warmUp + keys) {
        MonotonicClock.sleep(until: next)
        if number == warmUp {
          cpuBefore = instance.counters.allThreadsCPUNanoseconds
        }
        let key: Key = number % 2 == 0 ? .homeUp : .homeDown
        let records = instance.expect(key) + Instance.records(key, value: 0)
        let start = MonotonicClock.now()
        guard instance.writeSome(records, from: 0) == records.count else {
          throw BenchmarkError(description: "\(kind.rawValue): the keypad FIFO is full")
        }
        if number >= warmUp {
          written.append(start)
        }
        next += Self.keyInterval
      }
      MonotonicClock.sleep(until: next)
      let cpuAfter = instance.counters.allThreadsCPUNanoseconds
      let arrivals = reader.stop(afterAnAnswerTo: written.last ?? 0)
      try instance.waitUntilSettled()
      instance.stop()
      var samples: [Int64] = []
      samples.reserveCapacity(keys)
      var index = 0
      for start in written {
        while index < arrivals.count, arrivals[index] < start { index += 1 }
        guard index < arrivals.count else {
          throw BenchmarkError(description: "\(kind.rawValue): a key had no answer")
        }
        samples.append(arrivals[index] - start)
      }
      result[kind] = LongRun(
        samples: samples, cpuPerKey: Double(cpuAfter - cpuBefore) / Double(keys))
    }
    return result
  }
}

/// The long runs' table: each run's p50 and p99 and CPU per key of every subject, and
/// scoreboardd's ratios: with a state file to the saving floor and to the floor, without
/// one to the floor.
func longRunTable(_ runs: [[Scenarios.LongRunSubject: LongRun]]) -> String {
  let kinds = Scenarios.LongRunSubject.allCases
  var text = "| run | " + kinds.map { "\($0.rawValue): p50 / p99 / CPU" }.joined(separator: " | ")
  text += " | p50: state file / saving floor, state file / floor, none / floor"
  text += " | CPU: state file / saving floor, state file / floor, none / floor |\n"
  text += "|" + String(repeating: " --- |", count: kinds.count + 3) + "\n"
  for (number, run) in runs.enumerated() {
    var cells = ["\(number + 1)"]
    var p50: [Scenarios.LongRunSubject: Double] = [:]
    var cpu: [Scenarios.LongRunSubject: Double] = [:]
    for kind in kinds {
      let figures = run[kind]!
      let sorted = figures.samples.sorted()
      p50[kind] = Double(percentile(sorted, 0.5)) / 1000
      cpu[kind] = figures.cpuPerKey / 1000
      cells.append(
        "\(format(p50[kind]!)) / \(format(Double(percentile(sorted, 0.99)) / 1000)) / "
          + format(cpu[kind]!))
    }
    for figures in [p50, cpu] {
      cells.append(
        [
          ratio(figures[.scoreboardd]!, figures[.savingFloor]!),
          ratio(figures[.scoreboardd]!, figures[.floor]!),
          ratio(figures[.scoreboarddWithoutStateFile]!, figures[.floor]!),
        ].joined(separator: ", "))
    }
    text += "| " + cells.joined(separator: " | ") + " |\n"
  }
  return text
}
