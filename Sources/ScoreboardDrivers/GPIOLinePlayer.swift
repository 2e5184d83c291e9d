import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// Carries out the line steps of a bit-banged frame on a line request, real or fake: at
/// once (`play`, `finish`), or in pieces between which the event loop runs (`advance`).
///
/// Delays are kept on one schedule from the frame's start: each one ends at the sum of
/// the delays so far, so the time that line operations, and the loop between pieces,
/// take is absorbed and the frame never runs faster than its bit delays add up to; a
/// late wake-up shortens the following delays until the frame is back on schedule, and
/// a delay whose end has passed costs no system call (delays of a microsecond are far
/// shorter than a sleep's wake-up latency).
///
/// A piece ends at the first delay that ends more than `longestInlineWait` after the
/// piece began: the loop comes back at that end (`Progress.waiting`). Earlier ones are
/// slept in the piece. So no piece sleeps for longer than that (plus the overshoot of
/// one sleep), not even through a chain of short waits, each made short by the
/// overshoot of the sleep before it.
public struct GPIOLinePlayer {
  /// How far past its start a piece sleeps: 20 µs. Every sleep of the daemon's thread,
  /// inline or in the loop's wait, ends late by the timer slack (50 µs by default)
  /// and the wake-up latency (60-70 µs in all on the benchmark machine), so a 100 µs bit
  /// delay is entered some 40 µs before its end: handed back to the loop, that wait
  /// lets a key in, where a sleep would hold it for the wait and the overshoot. Only a
  /// wait so short that the loop's round trip (its wait and its bookkeeping) costs about
  /// as much is slept in the piece.
  public static let defaultLongestInlineWait: Duration = .microseconds(20)

  /// How each line of the request is configured as an output: `drive` steps take a
  /// line back with these settings.
  public let outputSettings: [GPIOLineSettings]
  /// The clock the delays are timed by.
  public let clock: any TimeSource
  /// The longest wait `advance` sleeps instead of returning; nil sleeps through every
  /// delay, so that `advance` plays the whole frame.
  public let longestInlineWait: Duration?

  /// One frame's steps and how far they are played.
  public struct Playback {
    /// The frame's steps.
    public let steps: [LineStep]
    /// The index of the next step to play.
    public fileprivate(set) var position = 0
    /// Where the frame's schedule is: when the last delay played ends; nil before the
    /// frame starts.
    public fileprivate(set) var scheduled: Instant?
    /// The levels the `sample` steps played so far read, in order.
    public fileprivate(set) var samples: [Bool] = []

    /// `steps`, not started.
    public init(_ steps: [LineStep]) {
      self.steps = steps
    }
  }

  /// How far a piece of a frame got.
  public enum Progress: Hashable, Sendable {
    /// The next step comes after a delay that ends at `deadline`: `advance` again then.
    case waiting(until: Instant)
    /// Every step was played and every acknowledgement came.
    case finished
    /// An acknowledgement did not come. The frame stops there, leaving the lines as they
    /// are then (for a TM1637: CLK high, DIO released and pulled high, so the bus is
    /// idle).
    case unacknowledged
  }

  /// A player for lines requested with `outputSettings`, in request order.
  ///
  /// - Parameters:
  ///   - clock: What times the delays.
  ///   - longestInlineWait: The longest wait `advance` sleeps instead of returning; nil
  ///     plays every frame to its end at once.
  public init(
    outputSettings: [GPIOLineSettings], clock: any TimeSource = KernelTimeSource(),
    longestInlineWait: Duration? = defaultLongestInlineWait
  ) {
    self.outputSettings = outputSettings
    self.clock = clock
    self.longestInlineWait = longestInlineWait
  }

  /// Plays `steps` on `lines` at once, sleeping through every delay.
  ///
  /// - Returns: Whether every acknowledgement came (see `Progress.unacknowledged`).
  /// - Throws: The error of a line operation that failed, which also stops the frame.
  public func play(_ steps: [LineStep], on lines: any GPIOLines) throws -> Bool {
    var playback = Playback(steps)
    return try finish(&playback, on: lines)
  }

  /// Plays the rest of `playback` at once, sleeping through every delay.
  ///
  /// - Returns: Whether every acknowledgement came.
  /// - Throws: The error of a line operation that failed, which also stops the frame.
  public func finish(_ playback: inout Playback, on lines: any GPIOLines) throws -> Bool {
    try run(&playback, on: lines, longestInlineWait: nil) == .finished
  }

  /// Plays the next piece of `playback`: its steps up to a delay that ends more than
  /// `longestInlineWait` from now. The first piece starts the frame's schedule; a call
  /// before the end of the delay the last piece stopped at waits for it as for any
  /// delay.
  ///
  /// A `release` turns the line into an input with its bias as it is; a `drive` turns
  /// it back into an output with its settings, driving the step's value; an `expectLow`
  /// reads it, as a `sample` does, which keeps the level in `samples`.
  ///
  /// - Throws: The error of a line operation that failed, which also stops the frame.
  public func advance(_ playback: inout Playback, on lines: any GPIOLines) throws -> Progress {
    try run(&playback, on: lines, longestInlineWait: longestInlineWait)
  }

  private func run(
    _ playback: inout Playback, on lines: any GPIOLines, longestInlineWait: Duration?
  ) throws -> Progress {
    let start = clock.now()
    let wait = Wait(clock: clock, latestEnd: longestInlineWait.map { start + $0 })
    var scheduled: Instant
    if let resumed = playback.scheduled {
      scheduled = resumed
      guard wait.until(scheduled) else { return .waiting(until: scheduled) }
    } else {
      scheduled = start
      playback.scheduled = scheduled
    }
    let steps = playback.steps
    while playback.position < steps.count {
      let step = steps[playback.position]
      playback.position += 1
      switch step {
      case .set(let line, let value):
        try lines.set(line, value)
      case .delay(let nanoseconds):
        scheduled = scheduled + .nanoseconds(nanoseconds)
        playback.scheduled = scheduled
        guard wait.until(scheduled) else { return .waiting(until: scheduled) }
      case .release(let line):
        try lines.reconfigure(
          line, as: GPIOLineSettings(direction: .input, activeLow: outputSettings[line].activeLow))
      case .expectLow(let line):
        if try lines.get(line) {
          return .unacknowledged
        }
      case .drive(let line, let value):
        var settings = outputSettings[line]
        settings.initialValue = value
        try lines.reconfigure(line, as: settings)
      case .sample(let line):
        playback.samples.append(try lines.get(line))
      }
    }
    return .finished
  }

  /// The waits of one piece.
  private struct Wait {
    let clock: any TimeSource
    /// The latest end of a wait that the piece sleeps for; nil for any.
    let latestEnd: Instant?

    /// Waits for `end` unless it is later than `latestEnd`; a passed end costs no system
    /// call.
    ///
    /// - Returns: false when the piece stops there, to go on at `end`.
    func until(_ end: Instant) -> Bool {
      if let latestEnd, end > latestEnd {
        return clock.now() >= end
      }
      if clock.now() < end {
        clock.sleep(until: end)
      }
      return true
    }
  }
}
