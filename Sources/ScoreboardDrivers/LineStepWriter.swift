import ScoreboardCore

/// Builds the steps of a bit-banged frame, keeping track of each line's level so that a
/// `set` that would not change a line is left out (each one is a system call on real
/// lines).
///
/// Encoders start a writer from the lines' idle levels, which every frame ends in, or
/// from an unknown level where a line may be anywhere.
struct LineStepWriter {
  /// The steps so far.
  private(set) var steps: [LineStep] = []
  /// The level each line is at after `steps`, nil while unknown; a released line is
  /// pulled high.
  private var levels: [Bool?]
  /// The bit delay in nanoseconds; no delay steps when it is 0.
  private let delay: Int64

  /// A writer for lines at `levels` (nil: unknown), pausing `delay` between edges.
  init(levels: [Bool?], delay: Duration) {
    self.levels = levels
    self.delay = delay.nanoseconds
  }

  /// Drives output `line` to `value`, unless it is there already.
  mutating func set(_ line: Int, _ value: Bool) {
    guard levels[line] != value else { return }
    levels[line] = value
    steps.append(.set(line: line, value: value))
  }

  /// Waits one bit delay.
  mutating func pause() {
    if delay > 0 {
      steps.append(.delay(nanoseconds: delay))
    }
  }

  /// Waits `duration`, a wait the protocol needs whatever its bit delay.
  mutating func wait(_ duration: Duration) {
    if duration > .zero {
      steps.append(.delay(nanoseconds: duration.nanoseconds))
    }
  }

  /// Lets go of `line`, which its pull-up takes high.
  mutating func release(_ line: Int) {
    levels[line] = true
    steps.append(.release(line: line))
  }

  /// Reads released `line`, which the device must hold low.
  mutating func expectLow(_ line: Int) {
    steps.append(.expectLow(line: line))
  }

  /// Reads released `line`, which the device drives, keeping its level.
  mutating func sample(_ line: Int) {
    steps.append(.sample(line: line))
  }

  /// Takes `line` back as an output driving `value`, whatever it was before.
  mutating func drive(_ line: Int, _ value: Bool) {
    levels[line] = value
    steps.append(.drive(line: line, value: value))
  }
}
