import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import TestSupport

/// The key scan of a TM1638 board at its default timing (2 µs bit delay, a read every
/// 20 ms): one read played at once on in-memory lines with a chip that answers, and the
/// wakeups the scan costs when the reads are played in pieces from a loop, as the daemon
/// plays them.
enum KeyScanTime {
  struct Result {
    /// Line operations of one read (each a system call on real lines).
    var operations: Int
    /// The sum of its delays, in nanoseconds.
    var delays: Int64
    /// The median time one read took to play at once, in nanoseconds.
    var played: Int64
    /// Reads, and the loop's wakeups for them, per second of scanning.
    var readsPerSecond: Double
    var wakeupsPerSecond: Double
  }

  static func measure(repetitions: Int, seconds: Double) throws -> Result {
    let encoder = TM1638Protocol(cellCount: 8)
    let steps = encoder.keyRead()
    let lines = try FakeGPIOLines(
      addresses: encoder.lines.indices.map { .offset(chip: "bench", offset: $0) },
      settings: encoder.lines.map(\.settings))
    let chip = TM1638Chip(on: lines)
    chip.decoder.pressed = [1]
    let player = GPIOLinePlayer(outputSettings: encoder.lines.map(\.settings))
    var times: [Int64] = []
    for _ in 0..<repetitions {
      let start = MonotonicClock.now()
      _ = try player.play(steps, on: lines)
      times.append(MonotonicClock.now() - start)
    }
    let delays = steps.reduce(Int64(0)) { total, step in
      if case .delay(let nanoseconds) = step { total + nanoseconds } else { total }
    }
    let operations = steps.filter { if case .delay = $0 { false } else { true } }.count
    let scan = try scanInPieces(seconds: seconds)
    return Result(
      operations: operations, delays: delays, played: times.sorted()[times.count / 2],
      readsPerSecond: Double(scan.reads) / seconds,
      wakeupsPerSecond: Double(scan.wakeups) / seconds)
  }

  /// A board reading its buttons for `seconds`, served at each of its deadlines as the
  /// loop would: how many reads were made and how many wakeups they took.
  private static func scanInPieces(seconds: Double) throws -> (reads: Int, wakeups: Int) {
    let backend = FakeGPIOBackend()
    let start = Instant(nanoseconds: MonotonicClock.now())
    let board = TM1638Board(
      name: "bench", addresses: (0..<3).map { .offset(chip: "bench", offset: $0) },
      encoder: TM1638Protocol(cellCount: 8),
      buttons: TM1638Board.Buttons(keys: (0..<8).compactMap { Key("BTN_\($0)") }), backend: backend,
      logger: Logger(output: .standardError, programName: "bench", minimumLevel: .error),
      at: start)
    let chip = TM1638Chip(on: backend.requests[0])
    board.show(Frame(cells: Array(repeating: .blank, count: 8), brightness: 8), at: start)
    while board.isPlaying, let deadline = board.waitingFor.deadline {
      MonotonicClock.sleep(until: deadline.nanoseconds)
      board.service([], at: Instant(nanoseconds: MonotonicClock.now()))
    }
    chip.catchUp()
    let readsBefore = chip.decoder.keyReads
    let end = Instant(nanoseconds: MonotonicClock.now()) + .nanoseconds(Int64(seconds * 1e9))
    var wakeups = 0
    while let deadline = board.waitingFor.deadline, deadline < end {
      MonotonicClock.sleep(until: deadline.nanoseconds)
      let now = Instant(nanoseconds: MonotonicClock.now())
      board.service([], at: now)
      _ = board.service(at: now)
      wakeups += 1
    }
    chip.catchUp()
    return (chip.decoder.keyReads - readsBefore, wakeups)
  }
}
