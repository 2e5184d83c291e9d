// Frame times of the GPIO display protocols at their default timing and of the HT16K33
// driver on I²C, and the time keys wait while a TM1637 display is updated every 100 ms.
//
// For each protocol and display size it encodes a full frame (every cell changed) and
// plays it on in-memory lines through the same player the daemon uses, sleeping the
// protocol's bit delays. It prints the encode time, the line operations (each one a
// system call on real hardware), the sum of the bit delays (the floor of the frame
// time) and the time the frame took to play.
//
// Then `KeyScanTime`: a TM1638 board's key read played at once, and the reads and loop
// wakeups per second of its scan when the reads are played in pieces.
//
// Then `KeyLatency`: keys written into a pipe from a second thread while a real poll
// loop serves them and a TM1637 showing a clock in tenths, its frames played in pieces
// from the loop and, for comparison, each at once in `show` as before.
//
// Then `ClockLag`: the daemon itself, in this process, with a TM1637 clock module and a
// GPIO horn on in-memory lines that note the instant of every level change: how late each
// digit change and the horn at zero come.
//
//   GPIOFrameBenchmark [--quick] [--clock-only] [--clock-seconds N]
//     (--quick: 200 keys instead of 2,000, and 20 s of clock instead of 600;
//      --clock-only: the clock alone)

@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import TestSupport

struct Case {
  var name: String
  var cells: Int
  var encoder: any GPIOProtocol
}

func frame(_ cells: Int, seed: Int) -> Frame {
  let digits = (0..<cells).map { SegmentFont.segments(for: Character(String((seed + $0) % 10)))! }
  return Frame(cells: digits, brightness: 8)
}

let cases = [
  Case(name: "tm1637", cells: 4, encoder: TM1637Protocol(cellCount: 4)),
  Case(name: "tm1637", cells: 6, encoder: TM1637Protocol(cellCount: 6)),
  Case(name: "tm1638", cells: 8, encoder: TM1638Protocol(cellCount: 8)),
  Case(name: "max7219", cells: 8, encoder: MAX7219Protocol(cellCount: 8)),
  Case(name: "max7219", cells: 32, encoder: MAX7219Protocol(cellCount: 32)),
  Case(name: "shift-register", cells: 4, encoder: ShiftRegisterProtocol(cellCount: 4)),
  Case(name: "shift-register", cells: 8, encoder: ShiftRegisterProtocol(cellCount: 8)),
]
let repetitions = 25
let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let clockOnly = arguments.contains("--clock-only")
let clockSeconds =
  arguments.firstIndex(of: "--clock-seconds").flatMap {
    $0 + 1 < arguments.count ? Double(arguments[$0 + 1]) : nil
  } ?? (quick ? 20 : 600)

/// The clock section: the daemon in this process (ClockLag.swift).
func clockSection() throws {
  let run = try ClockLag.measure(seconds: clockSeconds)
  print("")
  print("### Game clock on a TM1637 and horn at zero, the daemon in the process")
  print("")
  print(
    "The daemon (ScoreboardDaemon) on the main thread for \(Int(clockSeconds)) s, a 4-cell "
      + "TM1637 clock module and a GPIO horn on in-memory lines that note the monotonic instant "
      + "of every level change; a clock of \(run.length) with `tenths-below = always`, started "
      + "through the control socket (\(run.periods) starts, again after each zero). Lag: from "
      + "the instant the text should change (start + length − time shown, from the state "
      + "file) to the first line edge of the frame that shows it; horn: from the zero to the "
      + "horn's line going high.")
  print("")
  print("| figure | count | p50 (µs) | p99 (µs) | max (µs) | min (µs) | drift (µs/min) |")
  print("|---|---|---|---|---|---|---|")
  func row(_ name: String, _ values: [Int64], slope: String) {
    let sorted = values.sorted()
    guard !sorted.isEmpty else {
      print("| \(name) | 0 | – | – | – | – | – |")
      return
    }
    func at(_ fraction: Double) -> Int64 {
      sorted[min(Int(Double(sorted.count - 1) * fraction + 0.5), sorted.count - 1)]
    }
    func signed(_ nanoseconds: Int64) -> String {
      (nanoseconds < 0 ? "-" : "") + microseconds(abs(nanoseconds))
    }
    print(
      "| \(name) | \(sorted.count) | \(signed(at(0.5))) | \(signed(at(0.99))) "
        + "| \(signed(sorted.last!)) | \(signed(sorted.first!)) | \(slope) |")
  }
  // Least-squares slope of the lag over the run, µs per minute.
  var slope = "–"
  if let origin = run.changes.first?.expected, run.changes.count > 2 {
    let xs = run.changes.map { Double($0.expected - origin) / 60e9 }
    let ys = run.changes.map { Double($0.lag) / 1000 }
    let meanX = xs.reduce(0, +) / Double(xs.count)
    let meanY = ys.reduce(0, +) / Double(ys.count)
    let numerator = zip(xs, ys).reduce(0.0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
    let denominator = xs.reduce(0.0) { $0 + ($1 - meanX) * ($1 - meanX) }
    if denominator > 0 {
      let hundredths = Int((numerator / denominator * 100).rounded())
      slope =
        (hundredths < 0 ? "-" : "") + "\(abs(hundredths) / 100)."
        + (abs(hundredths) % 100 < 10 ? "0" : "") + "\(abs(hundredths) % 100)"
    }
  }
  row("digit change to first line edge", run.changes.map(\.lag), slope: slope)
  row("zero to horn line high", run.horn, slope: "–")
  if !run.violations.isEmpty {
    print("")
    print("TM1637 protocol violations seen by the decoder: \(run.violations.count)")
  }
}
if clockOnly {
  try clockSection()
  exit(0)
}

print("GPIO frame times at default timing (every cell changed; median of \(repetitions) frames)")
print("")
print("| protocol | cells | encode (µs) | line operations | bit delays (µs) | played (µs) |")
print("|---|---|---|---|---|---|")
for benchmark in cases {
  var encoder = benchmark.encoder
  let lines = try FakeGPIOLines(
    addresses: encoder.lines.indices.map { .offset(chip: "bench", offset: $0) },
    settings: encoder.lines.map(\.settings))
  lines.inputModel = { _, _ in false }  // a TM1637 pulls DIO low: every byte acknowledged
  let player = GPIOLinePlayer(outputSettings: encoder.lines.map(\.settings))
  _ = try player.play(encoder.initialize(showing: frame(benchmark.cells, seed: 0)), on: lines)

  var encodeTimes: [Int64] = []
  var playTimes: [Int64] = []
  var operations = 0
  var delays: Int64 = 0
  for repetition in 1...repetitions {
    let next = frame(benchmark.cells, seed: repetition)
    let encodeStart = MonotonicClock.now()
    let steps = encoder.update(to: next)
    encodeTimes.append(MonotonicClock.now() - encodeStart)
    operations = steps.filter { if case .delay = $0 { false } else { true } }.count
    delays = steps.reduce(0) { total, step in
      if case .delay(let nanoseconds) = step { total + nanoseconds } else { total }
    }
    let playStart = MonotonicClock.now()
    guard try player.play(steps, on: lines) else { fatalError("the fake lines always acknowledge") }
    playTimes.append(MonotonicClock.now() - playStart)
  }
  print(
    "| \(benchmark.name) | \(benchmark.cells) | \(microseconds(median(encodeTimes))) | "
      + "\(operations) | \(microseconds(delays)) | \(microseconds(median(playTimes))) |")
}
I2CFrameTime.report(repetitions: repetitions)

let scan = try KeyScanTime.measure(repetitions: repetitions, seconds: quick ? 1 : 10)
print("")
print(
  "TM1638 key scan at default timing (a read of the 8 buttons every 20 ms; one read played "
    + "at once, median of \(repetitions); the reads played in pieces from a loop for "
    + "\(quick ? 1 : 10) s)")
print("")
print("| scan | line operations | bit delays (µs) | played (µs) | reads/s | wakeups/s |")
print("|---|---|---|---|---|---|")
func oneDecimal(_ rate: Double) -> String {
  let tenths = Int((rate * 10).rounded())
  return "\(tenths / 10).\(tenths % 10)"
}
print(
  "| tm1638 key read | \(scan.operations) | \(microseconds(scan.delays)) | "
    + "\(microseconds(scan.played)) | \(oneDecimal(scan.readsPerSecond)) | "
    + "\(oneDecimal(scan.wakeupsPerSecond)) |")

let keys = quick ? 200 : 2_000
print("")
print("### Key latency while a TM1637 display is updated every 100 ms")
print("")
print(
  "A real PollLoop; a 4-cell TM1637 (100 µs bit delay) on in-memory lines, a new frame every "
    + "100 ms (a clock in tenths: the last cell changes); \(keys) keys, single bytes written "
    + "into a pipe from a second thread 1-9 ms apart at random. The wait runs from just before "
    + "the write to the read in the loop's handler.")
print("")
print(
  "| frames played | frames | p50 (µs) | p99 (µs) | max (µs) | keys waiting over 2 ms "
    + "| loop wakeups/s | thread wakeups/s |")
print("|---|---|---|---|---|---|---|---|")
let modes: [(String, KeyLatency.Mode)] = [
  ("in pieces from the loop", .pieces), ("at once in show (before)", .blocking),
  ("no display (the loop and the machine alone)", .none),
]
for (name, mode) in modes {
  let run = try KeyLatency.measure(keys: keys, mode: mode, seed: 1637)
  let seconds = Double(run.elapsed) / 1e9
  func perSecond(_ count: Int) -> String {
    let tenths = Int((Double(count) / seconds * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
  let slow = run.waits.filter { $0 > 2_000_000 }.count
  print(
    "| \(name) | \(run.frames) | \(microseconds(run.percentile(50))) | "
      + "\(microseconds(run.percentile(99))) | \(microseconds(run.waits.max() ?? 0)) | "
      + "\(slow) of \(run.waits.count) | \(perSecond(run.loopWakeups)) | "
      + "\(perSecond(run.threadWakeups)) |")
}
try clockSection()
