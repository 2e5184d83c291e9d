@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import TestSupport

/// How long keys wait for the loop while a TM1637 display (4 cells, 100 µs bit delay) on
/// in-memory lines is given a new frame every 100 ms, as a game clock showing tenths:
/// a real `PollLoop` serves a pipe that a second thread writes single-byte keys into at
/// random instants, and the display's deadlines, as the daemon's loop does.
struct KeyLatency {
  /// From the write of each key to its read in the loop's handler, in nanoseconds.
  var waits: [Int64]
  /// How long the run took, in nanoseconds.
  var elapsed: Int64
  /// How often the loop's wait returned.
  var loopWakeups: Int
  /// How often the loop's thread went to sleep and was woken (voluntary context
  /// switches): the loop's wakeups and the sleeps inside the display's calls.
  var threadWakeups: Int
  /// The frames shown (counted without a display too).
  var frames: Int

  /// How the display's frames are played.
  enum Mode {
    /// In pieces from the loop (the driver as it is).
    case pieces
    /// Each frame at once in `show`, as the driver did before.
    case blocking
    /// No display at all: what the loop and the machine cost by themselves.
    case none
  }

  /// Runs `keys` keys, 1 to 9 ms apart (uniformly at random from `seed`), with frames
  /// played as `mode` says.
  static func measure(keys: Int, mode: Mode, seed: UInt64) throws -> KeyLatency {
    let loop = PollLoop()
    let backend = FakeGPIOBackend()
    let logger = Logger(programName: "GPIOFrameBenchmark", minimumLevel: .error)
    var display: GPIOSegmentDisplay?
    if mode != .none {
      display = GPIOSegmentDisplay(
        name: "clock",
        addresses: [.offset(chip: "bench", offset: 0), .offset(chip: "bench", offset: 1)],
        encoder: TM1637Protocol(cellCount: 4), backend: backend, logger: logger,
        at: Instant(nanoseconds: MonotonicClock.now()),
        longestInlineWait: mode == .blocking ? nil : GPIOLinePlayer.defaultLongestInlineWait)
      backend.requests[0].inputModel = { line, _ in line != 1 }  // the chip acknowledges
    }

    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    try readEnd.setNonBlocking()
    var readAt: [Int64] = []
    readAt.reserveCapacity(keys)
    var buffer = [UInt8](repeating: 0, count: 64)
    loop.watch(readEnd, for: .readable) { _ in
      let count = (try? buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }) ?? 0
      let now = MonotonicClock.now()
      for _ in 0..<count {
        readAt.append(now)
      }
    }

    let start = MonotonicClock.now()
    var random = SeededRandom(seed: seed)
    var instants: [Int64] = []
    var instant = start + 50_000_000
    for _ in 0..<keys {
      instant += Int64.random(in: 1_000_000...9_000_000, using: &random)
      instants.append(instant)
    }
    let writer = KeyWriter(writingTo: writeEnd, at: instants)
    let switchesBefore = voluntaryContextSwitches()
    writer.start()

    var nextFrame = start
    var tenths = 0
    var loopWakeups = 0
    while readAt.count < keys {
      let now = MonotonicClock.now()
      if now >= nextFrame {
        display?.show(frame(tenths: tenths), at: Instant(nanoseconds: now))
        tenths += 1
        nextFrame += 100_000_000
      }
      var deadline = nextFrame
      if let due = display?.waitingFor.deadline {
        deadline = min(deadline, due.nanoseconds)
      }
      try loop.runOnce(timeout: .nanoseconds(max(deadline - MonotonicClock.now(), 0)))
      loopWakeups += 1
      let after = Instant(nanoseconds: MonotonicClock.now())
      if let display, let due = display.waitingFor.deadline, due <= after {
        display.service([], at: after)
      }
    }
    let elapsed = MonotonicClock.now() - start
    let threadWakeups = voluntaryContextSwitches() - switchesBefore
    let writtenAt = writer.join()
    guard display?.isOnline ?? true else { fatalError("the fake chip always acknowledges") }
    return KeyLatency(
      waits: zip(readAt, writtenAt).map { $0 - $1 }, elapsed: elapsed,
      loopWakeups: loopWakeups, threadWakeups: threadWakeups, frames: tenths)
  }

  /// The frame of a clock `tenths` tenths of a second in: four digits, the last one the
  /// tenths.
  static func frame(tenths: Int) -> Frame {
    let digits = [1000, 100, 10, 1].map { tenths / $0 % 10 }
    return Frame(
      cells: digits.map { SegmentFont.segments(for: Character(String($0)))! }, brightness: 8)
  }

  /// The nearest-rank percentile `percent` of the waits, in nanoseconds.
  func percentile(_ percent: Int) -> Int64 {
    let sorted = waits.sorted()
    let rank = (sorted.count * percent + 99) / 100
    return sorted[max(rank - 1, 0)]
  }

  /// The voluntary context switches of the calling thread so far.
  private static func voluntaryContextSwitches() -> Int {
    let descriptor = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    where line.hasPrefix("voluntary_ctxt_switches:") {
      return Int(line.filter(\.isNumber)) ?? 0
    }
    return 0
  }
}
