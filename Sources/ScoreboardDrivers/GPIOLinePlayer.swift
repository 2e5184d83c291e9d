import LinuxIO
import ScoreboardSettings

/// Carries out the line steps of a bit-banged frame on a line request, real or fake.
///
/// It blocks for the frame's time. Delays are kept on one schedule from the frame's
/// start: each one ends at the sum of the delays so far, so the time line operations
/// take is absorbed and the frame never runs faster than its bit delays add up to; a
/// late wake-up shortens the following delays until the frame is back on schedule, and
/// a delay whose end has passed costs no system call (delays of a microsecond are far
/// shorter than a sleep's wake-up latency).
public struct GPIOLinePlayer {
  /// How each line of the request is configured as an output: `drive` steps take a
  /// line back with these settings.
  public let outputSettings: [GPIOLineSettings]

  /// A player for lines requested with `outputSettings`, in request order.
  public init(outputSettings: [GPIOLineSettings]) {
    self.outputSettings = outputSettings
  }

  /// Plays `steps` on `lines`. A `release` turns the line into an input with its bias
  /// as it is; a `drive` turns it back into an output with its settings, driving the
  /// step's value; an `expectLow` reads it.
  ///
  /// - Returns: Whether every acknowledgement came. The frame stops at the first missing
  ///   one, leaving the lines as they are then (for a TM1637: CLK high, DIO released and
  ///   pulled high, so the bus is idle).
  /// - Throws: The error of a line operation that failed, which also stops the frame.
  public func play(_ steps: [LineStep], on lines: any GPIOLines) throws -> Bool {
    var deadline = MonotonicClock.now()
    for step in steps {
      switch step {
      case .set(let line, let value):
        try lines.set(line, value)
      case .delay(let nanoseconds):
        deadline += nanoseconds
        if MonotonicClock.now() < deadline {
          MonotonicClock.sleep(until: deadline)
        }
      case .release(let line):
        try lines.reconfigure(
          line, as: GPIOLineSettings(direction: .input, activeLow: outputSettings[line].activeLow))
      case .expectLow(let line):
        if try lines.get(line) {
          return false
        }
      case .drive(let line, let value):
        var settings = outputSettings[line]
        settings.initialValue = value
        try lines.reconfigure(line, as: settings)
      }
    }
    return true
  }
}
