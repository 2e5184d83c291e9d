import ScoreboardCore

/// Where the daemon and its drivers read the time, through this one seam: the kernel's
/// clocks in the daemon (`KernelTimeSource`), one that the test moves in tests, so that
/// the whole daemon can run in virtual time.
public protocol TimeSource: AnyObject {
  /// The monotonic time: every instant of the daemon's model, loop and drivers.
  func now() -> Instant

  /// Sleeps until `deadline` (the steps of bit-banged frames); returns at once when it
  /// has passed. Signals do not cut the sleep short.
  func sleep(until deadline: Instant)

  /// The calendar time in milliseconds since the epoch, for what people read and what
  /// boards on other machines compare; nothing is timed with it.
  func wallClockMilliseconds() -> Int64

  /// Whether `now()` is the kernel's `CLOCK_MONOTONIC`, so that the loop may wait for a
  /// deadline on a kernel timer set to that very instant.
  var isKernelMonotonic: Bool { get }
}

extension TimeSource {
  public var isKernelMonotonic: Bool { false }
}
