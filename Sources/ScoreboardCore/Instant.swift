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

  /// The instant `rhs` later; saturates at the ends of the clock instead of overflowing.
  public static func + (lhs: Instant, rhs: Duration) -> Instant {
    Instant(nanoseconds: saturatingSum(lhs.nanoseconds, rhs.nanoseconds))
  }

  /// The instant `nanoseconds` later; saturates at the ends of the clock. For times kept
  /// in nanoseconds: adding a `Duration` takes a 128-bit division to find its nanoseconds.
  public func advanced(byNanoseconds nanoseconds: Int64) -> Instant {
    Instant(nanoseconds: Self.saturatingSum(self.nanoseconds, nanoseconds))
  }

  /// The instant `rhs` earlier; saturates at the ends of the clock instead of overflowing.
  public static func - (lhs: Instant, rhs: Duration) -> Instant {
    let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
    return Instant(nanoseconds: overflow ? (rhs.nanoseconds < 0 ? .max : .min) : difference)
  }

  /// The time from `rhs` to `lhs`; saturates instead of overflowing.
  public static func - (lhs: Instant, rhs: Instant) -> Duration {
    let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
    return .nanoseconds(overflow ? (lhs < rhs ? Int64.min : Int64.max) : difference)
  }

  private static func saturatingSum(_ lhs: Int64, _ rhs: Int64) -> Int64 {
    let (sum, overflow) = lhs.addingReportingOverflow(rhs)
    return overflow ? (rhs < 0 ? .min : .max) : sum
  }

  public var description: String {
    "\(nanoseconds / 1_000_000)ms"
  }
}

extension Duration {
  /// The duration in whole nanoseconds (truncated), clamped to `Int64`'s range.
  public var nanoseconds: Int64 {
    let parts = components
    let (whole, overflow) = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return parts.seconds < 0 ? .min : .max }
    let (sum, sumOverflow) = whole.addingReportingOverflow(parts.attoseconds / 1_000_000_000)
    return sumOverflow ? (parts.attoseconds < 0 ? .min : .max) : sum
  }

  /// The duration in whole milliseconds (truncated).
  public var milliseconds: Int64 {
    nanoseconds / 1_000_000
  }
}
