@preconcurrency import Glibc

/// The system's monotonic clock (`CLOCK_MONOTONIC`): it never jumps with the wall clock
/// and counts from an arbitrary point, typically boot.
public enum MonotonicClock {
  /// The current time in nanoseconds.
  public static func now() -> Int64 {
    var time = timespec()
    let result = clock_gettime(CLOCK_MONOTONIC, &time)
    precondition(result == 0, "CLOCK_MONOTONIC is always available on Linux")
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
