import LinuxIO
import ScoreboardCore

/// A display that does not answer: when it is tried again, and how many tries failed.
struct DisplayOutage {
  var retryAt: Instant
  var attempt: Int

  /// The outage after a failure at `now` for `reason`: the first one (`current` nil) is
  /// logged as a warning, later ones at debug level; the next try waits the serial
  /// displays' back-off (`SerialDisplay.retryDelay(attempt:)`).
  static func after(
    _ current: DisplayOutage?, display: String, reason: String, logger: Logger, at now: Instant
  ) -> DisplayOutage {
    if current == nil {
      logger.warning("display \(display): \(reason); offline, retrying")
    } else {
      logger.debug("display \(display): still offline: \(reason)")
    }
    let attempt = current.map { $0.attempt + 1 } ?? 0
    return DisplayOutage(
      retryAt: now + SerialDisplay.retryDelay(attempt: attempt), attempt: attempt)
  }
}
