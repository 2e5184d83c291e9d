/// Clock times as text: `12:00`, `9:59.5`, `53.8`, `24`.
public enum ClockText {
  /// A tenth of a second, in nanoseconds.
  static let tenth: Int64 = 100_000_000
  /// A second, in nanoseconds.
  static let second: Int64 = 1_000_000_000

  /// The forms `parse` reads, for messages.
  public static let expected = "a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9)"

  /// `time` (whole tenths) as text: `M:SS` from a minute on when `minutes`, else seconds;
  /// a tenth digit when `tenths`.
  public static func text(_ time: Duration, tenths: Bool, minutes: Bool) -> String {
    let totalTenths = max(time.nanoseconds, 0) / tenth
    let wholeSeconds = totalTenths / 10
    let tenthDigit = tenths ? "." + String(totalTenths % 10) : ""
    guard minutes, wholeSeconds >= 60 || !tenths else {
      return String(wholeSeconds) + tenthDigit
    }
    let seconds = wholeSeconds % 60
    return "\(wholeSeconds / 60):" + (seconds < 10 ? "0" : "") + String(seconds) + tenthDigit
  }

  /// The exact form of `time`, to tenths, for status lines and events: `11:34.2`, `53.8`
  /// (`minutes` from a minute on).
  public static func exact(_ time: Duration, minutes: Bool) -> String {
    text(time, tenths: true, minutes: minutes)
  }

  /// Reads `M:SS`, `M:SS.t`, `S` or `S.t` (minutes 0-99, seconds 0-59 after minutes);
  /// nil for anything else, `12:75` included.
  public static func parse(_ text: String) -> Duration? {
    var rest = Substring(text)
    var tenthDigit: Int64 = 0
    if let point = rest.firstIndex(of: ".") {
      let fraction = rest[rest.index(after: point)...]
      guard fraction.count == 1, let digit = fraction.first?.wholeNumberValue else { return nil }
      tenthDigit = Int64(digit)
      rest = rest[..<point]
    }
    var minutes: Int64 = 0
    let seconds: Int64
    if let colon = rest.firstIndex(of: ":") {
      let minuteText = rest[..<colon]
      let secondText = rest[rest.index(after: colon)...]
      guard let parsedMinutes = digits(minuteText, most: 2),
        secondText.count == 2, let parsedSeconds = digits(secondText, most: 2),
        parsedSeconds < 60
      else { return nil }
      minutes = parsedMinutes
      seconds = parsedSeconds
    } else {
      guard let parsedSeconds = digits(rest, most: 4) else { return nil }
      seconds = parsedSeconds
    }
    let total = (minutes * 60 + seconds) * second + tenthDigit * tenth
    return .nanoseconds(total)
  }

  /// A run of 1 to `most` ASCII digits as a number.
  private static func digits(_ text: Substring, most: Int) -> Int64? {
    guard (1...most).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      return nil
    }
    return Int64(text)
  }

  /// A signed amount of seconds with at most one tenth digit (`+1`, `-0.1`, `+10.5`) of
  /// at most the longest period (5999 s, 99:59) either way.
  public static func parseSigned(_ text: String) -> Duration? {
    guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
    let body = String(text.dropFirst())
    guard !body.contains(":"), let magnitude = parse(body), magnitude <= ClockFormat.longest
    else { return nil }
    return sign == "-" ? .zero - magnitude : magnitude
  }

  /// `amount` as a signed text: `+1`, `-0.1`.
  public static func signed(_ amount: Duration) -> String {
    let negative = amount < .zero
    let magnitude = negative ? .zero - amount : amount
    let totalTenths = magnitude.nanoseconds / tenth
    let text =
      totalTenths % 10 == 0
      ? String(totalTenths / 10) : "\(totalTenths / 10).\(totalTenths % 10)"
    return (negative ? "-" : "+") + text
  }
}
