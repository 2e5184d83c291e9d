@preconcurrency import Glibc
import LinuxIO

/// One run of the instrumented build (`-DSTAGE_TIMES`): where a key's time goes inside
/// scoreboardd, next to what the harness measured of the same keys.
struct StageTimesRun {
  /// A stage of the report: its name, and the median and 90th percentile in µs.
  struct Stage {
    var name: String
    var median: Double
    var high: Double
  }

  var stages: [Stage]
  /// Key-to-wire of the same keys, nanoseconds, as the harness saw them.
  var samples: [Int64]
  /// Nanoseconds from the harness's write of each key to the loop's wakeup.
  var toWakeup: [Int64]
  /// Nanoseconds from the return of the daemon's write to the harness's poll finding
  /// the byte.
  var fromWrite: [Int64]
  /// CPU time per key (press and release), nanoseconds.
  var cpuPerKey: Double
}

extension Scenarios {
  /// Runs the instrumented scoreboardd at `instrumented` alone, `warmUp` then `keys`
  /// keys one every 2 ms as in the key-to-wire runs in blocks (each press answered, then
  /// its release), and reads the stage times it writes when it stops.
  func stageTimes(instrumented: String, keys: Int, warmUp: Int = 100) throws -> StageTimesRun {
    var instrumentedPrograms = programs
    instrumentedPrograms.scoreboardd = instrumented
    var template = Array("/tmp/scoreboardd-stages-XXXXXX".utf8CString)
    let made = mkstemp(&template)
    guard made >= 0 else { throw BenchmarkError(description: "mkstemp") }
    close(made)
    let reportPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    defer { unlink(reportPath) }
    let instance = try Instance(
      .scoreboardd, programs: instrumentedPrograms, baud: 1_000_000,
      environment: ["SCOREBOARDD_STAGE_TIMES": reportPath])
    try instance.waitUntilReady()
    var samples: [Int64] = []
    samples.reserveCapacity(keys)
    var timed: [(start: Int64, arrival: Int64)] = []
    var cpuBefore: Int64 = 0
    var next = MonotonicClock.now() + Self.keyInterval
    for number in 0..<(warmUp + keys) {
      MonotonicClock.sleep(until: next)
      if number == warmUp {
        cpuBefore = instance.counters.cpuNanoseconds
      }
      let key = try instance.timedKey(number)
      if number >= warmUp {
        samples.append(key.arrival - key.start)
        timed.append((key.start, key.arrival))
      }
      next = max(next + Self.keyInterval, MonotonicClock.now())
    }
    let cpuAfter = instance.counters.cpuNanoseconds
    try instance.waitUntilSettled()
    instance.stop()
    let report = try readText(reportPath)
    var stages: [StageTimesRun.Stage] = []
    var instants: [(woke: Int64, written: Int64)] = []
    for line in report.split(separator: "\n") where !line.hasPrefix("#") {
      let words = line.split(separator: " ")
      if words.first == "at", words.count == 3, let woke = Int64(words[1]),
        let written = Int64(words[2])
      {
        instants.append((woke, written))
        continue
      }
      guard words.count == 3, let median = Double(words[1]), let high = Double(words[2]) else {
        throw BenchmarkError(description: "instrumented scoreboardd: bad report line '\(line)'")
      }
      stages.append(.init(name: String(words[0]), median: median / 1000, high: high / 1000))
    }
    guard !stages.isEmpty else {
      throw BenchmarkError(
        description: "instrumented scoreboardd wrote no stage times (is it built with "
          + "-DSTAGE_TIMES?)\n\(instance.log)")
    }
    // The report keeps every press, the warm-up's first: the last `keys` are the timed.
    guard instants.count >= keys else {
      throw BenchmarkError(
        description: "instrumented scoreboardd reported \(instants.count) presses of "
          + "\(warmUp + keys)")
    }
    let timedInstants = instants.suffix(keys)
    return StageTimesRun(
      stages: stages, samples: samples,
      toWakeup: zip(timed, timedInstants).map { $1.woke - $0.start },
      fromWrite: zip(timed, timedInstants).map { $0.arrival - $1.written },
      cpuPerKey: Double(cpuAfter - cpuBefore) / Double(keys))
  }
}

/// What each stage of a key's path took in the instrumented build, run by run (median,
/// with the 90th percentile in brackets), and the harness's key-to-wire of the same keys.
func stageTimesTable(_ runs: [StageTimesRun]) -> String {
  guard let first = runs.first else { return "" }
  var text = "| stage (µs from the stage before) | "
  text += (1...runs.count).map { "run \($0): median (p90)" }.joined(separator: " | ") + " |\n"
  text += "| --- |" + String(repeating: " --- |", count: runs.count) + "\n"
  for (index, stage) in first.stages.enumerated() {
    let cells = runs.map { run in
      index < run.stages.count
        ? "\(format(run.stages[index].median)) (\(format(run.stages[index].high)))" : "–"
    }
    text += "| \(stage.name) | " + cells.joined(separator: " | ") + " |\n"
  }
  func cells(_ values: (StageTimesRun) -> [Int64]) -> String {
    runs.map { run in
      let sorted = values(run).sorted()
      return "\(format(Double(percentile(sorted, 0.5)) / 1000)) "
        + "(\(format(Double(percentile(sorted, 0.9)) / 1000)))"
    }.joined(separator: " | ")
  }
  text += "| before: the harness's write to the loop's wakeup | \(cells(\.toWakeup)) |\n"
  text += "| after: the write's return to the harness's poll | \(cells(\.fromWrite)) |\n"
  text += "| key-to-wire, as the harness saw it | \(cells(\.samples)) |\n"
  let cpu = runs.map { format($0.cpuPerKey / 1000) }
  text += "| CPU per key (press and release) | " + cpu.joined(separator: " | ") + " |\n"
  return text
}
