import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import TestSupport

/// Helpers for the GPIO display tests: displays on the fake backend, what a logic
/// analyser on their lines sees, and the log they write.
enum GPIOFixtures {
  /// A frame showing `text` (a `.` lights the point of the cell before it), with a lit
  /// colon after each cell of `colons` (a clock's; nil when no clock is on the display).
  static func frame(
    _ text: String, brightness: Int = 8, isBlank: Bool = false, colons: [Int]? = nil
  ) -> Frame {
    Frame(
      cells: try! SegmentFont.cells(for: text), brightness: brightness, isBlank: isBlank,
      colons: colons)
  }

  /// A display named `main` on a fresh fake backend, lines `GPIO17`, `GPIO18` ...
  static func display(
    _ encoder: any GPIOProtocol, logger: Logger = quietLogger, at now: Instant = .zero,
    clock: any TimeSource = KernelTimeSource(),
    longestInlineWait: Duration? = GPIOLinePlayer.defaultLongestInlineWait
  ) -> (display: GPIOSegmentDisplay, backend: FakeGPIOBackend) {
    let backend = FakeGPIOBackend()
    let display = GPIOSegmentDisplay(
      name: "main", addresses: encoder.lines.indices.map { .name("GPIO\(17 + $0)") },
      encoder: encoder, backend: backend, logger: logger, at: now, clock: clock,
      longestInlineWait: longestInlineWait)
    return (display, backend)
  }

  /// Services `display` at each of its deadlines, on the monotonic clock, until the
  /// frames it was given are played, as the loop would.
  static func playToEnd(_ display: GPIOSegmentDisplay) {
    while display.isPlaying, let deadline = display.waitingFor.deadline {
      MonotonicClock.sleep(until: deadline.nanoseconds)
      display.service([], at: Instant(nanoseconds: MonotonicClock.now()))
    }
  }

  /// The sum of the delays of `steps`, in nanoseconds, and how many there are.
  static func delays(of steps: [LineStep]) -> (total: Int64, count: Int) {
    steps.reduce((Int64(0), 0)) { sum, step in
      if case .delay(let nanoseconds) = step { (sum.0 + nanoseconds, sum.1 + 1) } else { sum }
    }
  }

  static let quietLogger = Logger(
    output: .standardError, programName: "scoreboardd-test", minimumLevel: .error)

  /// A TM1637 that acknowledges every byte: it holds DIO (line 1) low whenever DIO is
  /// released.
  static func answeringChip(_ line: Int, _ lines: FakeGPIOLines) -> Bool {
    line != 1
  }

  /// No TM1637 on the lines: the pull-up keeps a released DIO high.
  static func missingChip(_ line: Int, _ lines: FakeGPIOLines) -> Bool {
    true
  }
}

/// The level changes recorded on fake lines, handed out as a logic analyser's capture
/// in pieces: each call returns what happened since the previous one.
final class LineCapture {
  let lines: FakeGPIOLines
  private var consumed = 0

  init(_ lines: FakeGPIOLines) {
    self.lines = lines
  }

  /// The level changes since the last call.
  func newChanges() -> [(line: Int, high: Bool)] {
    let all = lines.transitions
    defer { consumed = all.count }
    return all[consumed...].map { (line: $0.line, high: $0.value) }
  }

  /// Forgets what happened so far.
  func skip() {
    consumed = lines.transitions.count
  }
}
