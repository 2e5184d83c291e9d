/// A point in time on a monotonic clock, in nanoseconds from an arbitrary origin.
///
/// The model never reads a clock: callers pass the time in, so scenarios in tests
/// are exact and repeatable.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Nanoseconds since the clock's origin.
  public var nanoseconds: Int64

  public init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// An instant `milliseconds` after the origin (convenient in tests and scenarios).
  public static func milliseconds(_ milliseconds: Int64) -> Instant {
    Instant(nanoseconds: milliseconds * 1_000_000)
  }

  public static let zero = Instant(nanoseconds: 0)

  public static func < (lhs: Instant, rhs: Instant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  public static func + (lhs: Instant, rhs: Duration) -> Instant {
    Instant(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
  }

  public static func - (lhs: Instant, rhs: Duration) -> Instant {
    Instant(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
  }

  public static func - (lhs: Instant, rhs: Instant) -> Duration {
    .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
  }

  public var description: String {
    "\(nanoseconds / 1_000_000)ms"
  }
}

extension Duration {
  /// The duration in whole nanoseconds (truncated).
  public var nanoseconds: Int64 {
    let parts = components
    return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
  }

  /// The duration in whole milliseconds (truncated).
  public var milliseconds: Int64 {
    nanoseconds / 1_000_000
  }
}
