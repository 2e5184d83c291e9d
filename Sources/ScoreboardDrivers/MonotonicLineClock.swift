import LinuxIO
import ScoreboardCore

/// The system's monotonic clock (`MonotonicClock`), which the daemon's instants are on,
/// timing bit-banged frames.
public struct MonotonicLineClock: LineClock {
  /// The monotonic clock.
  public init() {}

  public func now() -> Instant {
    Instant(nanoseconds: MonotonicClock.now())
  }

  public func sleep(until deadline: Instant) {
    MonotonicClock.sleep(until: deadline.nanoseconds)
  }
}
