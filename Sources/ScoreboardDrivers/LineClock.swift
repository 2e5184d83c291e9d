import ScoreboardCore

/// The clock that times the steps of bit-banged frames: the monotonic clock
/// (`MonotonicLineClock`) in the daemon, one that the test moves in tests.
public protocol LineClock {
  /// The current time, on the clock the event loop's instants are on.
  func now() -> Instant

  /// Sleeps until `deadline`; returns at once when it has passed. Signals do not cut
  /// the sleep short.
  func sleep(until deadline: Instant)
}
