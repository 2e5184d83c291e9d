@preconcurrency import Glibc

/// Waits until `condition` holds, looking again every few milliseconds, for at most
/// `timeout` seconds: for a condition another process brings about, where no event
/// tells when. Returns whether it held.
@discardableResult
public func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
  let deadline = secondsNow() + timeout
  while !condition() {
    guard secondsNow() < deadline else { return false }
    // The pause between two looks at the condition: the wait itself ends on the
    // condition, never on the time slept.
    usleep(2_000)
  }
  return true
}

/// The monotonic clock in seconds.
public func secondsNow() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
