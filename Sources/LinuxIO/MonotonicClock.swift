@preconcurrency import Glibc

/// The system's monotonic clock (`CLOCK_MONOTONIC`): it never jumps with the wall clock
/// and counts from an arbitrary point, typically boot.
public enum MonotonicClock {
  /// The current time in nanoseconds.
  public static func now() -> Int64 {
    var time = timespec()
    let result = SystemCall.clockGetTime(CLOCK_MONOTONIC, &time)
    precondition(result == 0, "CLOCK_MONOTONIC is always available on Linux")
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }

  /// Sleeps until `deadline` (nanoseconds on this clock): the bit delays of protocols
  /// bit-banged on GPIO lines. Signals do not cut the sleep short.
  public static func sleep(until deadline: Int64) {
    var time = timespec(
      tv_sec: time_t(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while SystemCall.clockSleep(CLOCK_MONOTONIC, until: &time) == EINTR {}
  }

  /// Lets the kernel end the calling thread's sleeps and timed waits at most a
  /// nanosecond late, instead of the 50 µs it may add by default to group wakeups
  /// (`PR_SET_TIMERSLACK`): the bit delays of GPIO frames and the loop's deadlines land
  /// on their instants. Threads started afterwards inherit it.
  ///
  /// - Returns: false when the kernel refused (the waits then keep the default slack).
  @discardableResult
  public static func waitWithoutSlack() -> Bool {
    SystemCall.setTimerSlack(1) == 0
  }
}
