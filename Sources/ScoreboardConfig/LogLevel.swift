/// How much the daemon logs: a message is written when its level is at or above this one.
///
/// The levels are syslog's, most severe first.
public enum LogLevel: String, Hashable, Sendable, CaseIterable {
  /// Something failed.
  case error
  /// Something is wrong but the daemon carries on.
  case warning
  /// A normal but significant event: start, reload, a device coming or going.
  case notice
  /// What the daemon is doing.
  case info
  /// Details for finding faults.
  case debug
}
