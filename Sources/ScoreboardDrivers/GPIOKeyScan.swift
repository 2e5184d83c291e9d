import ScoreboardCore

/// How a GPIO display whose device also has keys (a TM1638 board) reads them: a
/// transaction of its own, played on the display's lines between frames, on a schedule.
public struct GPIOKeyScan: Sendable {
  /// One key read's samples, and when the read began.
  public struct Read: Hashable, Sendable {
    /// What the read's `sample` steps read, in order.
    public var samples: [Bool]
    /// When the read began.
    public var time: Instant
  }

  /// The steps of one read.
  public var steps: [LineStep]
  /// The time from the start of one read to the start of the next.
  public var interval: Duration
  /// Whether a read's samples come from a device; a read that has none counts as a
  /// missing acknowledgement does.
  public var isAnswer: @Sendable ([Bool]) -> Bool

  /// A read of `steps` every `interval`, judged by `isAnswer`.
  public init(
    steps: [LineStep], interval: Duration, isAnswer: @escaping @Sendable ([Bool]) -> Bool
  ) {
    self.steps = steps
    self.interval = interval
    self.isAnswer = isAnswer
  }
}
