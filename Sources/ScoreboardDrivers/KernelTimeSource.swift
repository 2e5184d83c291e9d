import LinuxIO
import ScoreboardCore

/// The kernel's clocks: `CLOCK_MONOTONIC`, which the daemon's instants are on, and
/// `CLOCK_REALTIME` for the calendar.
public final class KernelTimeSource: TimeSource {
  /// The kernel's clocks.
  public init() {}

  public func now() -> Instant {
    Instant(nanoseconds: MonotonicClock.now())
  }

  public func sleep(until deadline: Instant) {
    MonotonicClock.sleep(until: deadline.nanoseconds)
  }

  public var isKernelMonotonic: Bool { true }

  public func wallClockMilliseconds() -> Int64 {
    WallClock.nowMilliseconds()
  }
}
