/// How important a log message is. The raw values are the syslog priorities that
/// journald reads from a `<N>` prefix; the names are what `log-level` takes.
public enum LogLevel: Int, Comparable, CaseIterable, Sendable, CustomStringConvertible {
  /// Something failed. Syslog `LOG_ERR`.
  case error = 3
  /// Something is wrong but the program carries on. Syslog `LOG_WARNING`.
  case warning = 4
  /// A normal but significant event (start, stop, reload). Syslog `LOG_NOTICE`.
  case notice = 5
  /// Routine information. Syslog `LOG_INFO`.
  case info = 6
  /// Details for finding a problem. Syslog `LOG_DEBUG`.
  case debug = 7

  /// The level named `name` (`warning`), in any case; nil for another word.
  public init?(name: String) {
    let lowercased = name.lowercased()
    guard let level = Self.allCases.first(where: { $0.name == lowercased }) else { return nil }
    self = level
  }

  /// Orders by importance: `.debug < .error`.
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
    lhs.rawValue > rhs.rawValue
  }

  /// The level's name as messages and the configuration spell it: `warning`.
  public var name: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .notice: "notice"
    case .info: "info"
    case .debug: "debug"
    }
  }

  public var description: String { name }
}
