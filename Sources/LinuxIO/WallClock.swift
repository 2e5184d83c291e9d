@preconcurrency import Glibc

/// The calendar time (`CLOCK_REALTIME`), for what people read, such as when saving the
/// scores began to fail. It may jump when the clock is set; nothing is timed with it.
public enum WallClock {
  /// Seconds since the epoch, 1970-01-01 00:00 UTC.
  public static func now() -> Int64 {
    var time = timespec()
    _ = SystemCall.clockGetTime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec)
  }

  /// Milliseconds since the epoch: the instants boards on other machines compare.
  public static func nowMilliseconds() -> Int64 {
    var time = timespec()
    _ = SystemCall.clockGetTime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec / 1_000_000)
  }

  /// `seconds` since the epoch as local time in ISO 8601 with its offset from UTC, such
  /// as `2026-12-01T10:32:05+01:00` (the time zone of `TZ` or `/etc/localtime`).
  public static func timestamp(_ seconds: Int64) -> String {
    var time = time_t(clamping: seconds)
    var parts = tm()
    guard SystemCall.localTime(&time, &parts) else { return "@\(seconds)" }
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let offset = Int(parts.tm_gmtoff) / 60
    let sign = offset < 0 ? "-" : "+"
    let zone = "\(sign)\(two(abs(offset) / 60)):\(two(abs(offset) % 60))"
    return "\(Int(parts.tm_year) + 1900)-\(two(Int(parts.tm_mon) + 1))-\(two(Int(parts.tm_mday)))"
      + "T\(two(Int(parts.tm_hour))):\(two(Int(parts.tm_min))):\(two(Int(parts.tm_sec)))\(zone)"
  }
}
