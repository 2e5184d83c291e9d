import ScoreboardCore
import ScoreboardDrivers

/// A time source that moves only when the test moves it or a driver sleeps (the bit
/// delays of a GPIO display), so that what each step does, and when, is exact.
public final class SteppedTimeSource: TimeSource {
  /// The current time.
  public var time: Instant
  /// The sleeps the player asked for, in order: when each began and until when.
  public private(set) var sleeps: [(from: Instant, until: Instant)] = []
  /// How much later than asked a sleep ends, as the kernel's timer slack makes it.
  public var overshoot: Duration = .zero

  /// A clock at `time`.
  public init(at time: Instant = .milliseconds(1_000)) {
    self.time = time
  }

  public func now() -> Instant {
    time
  }

  public func sleep(until deadline: Instant) {
    sleeps.append((time, deadline))
    time = max(time, deadline + overshoot)
  }

  /// The calendar moves with the monotonic time, from 1 December 2026 00:00 UTC.
  public func wallClockMilliseconds() -> Int64 {
    1_796_083_200_000 + time.nanoseconds / 1_000_000
  }
}
