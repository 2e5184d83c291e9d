/// Exit codes from `sysexits.h`, which systemd units and scripts can tell apart.
public enum ExitCode: Int32, Sendable {
  case success = 0
  /// `EX_USAGE`: the command line was wrong.
  case usage = 64
  /// `EX_UNAVAILABLE`: a device the configuration needs is missing.
  case unavailable = 69
  /// `EX_SOFTWARE`: an internal error.
  case software = 70
  /// `EX_IOERR`: a device failed while in use.
  case ioError = 74
  /// `EX_CONFIG`: the configuration is missing or invalid.
  case configuration = 78
}

/// A failure that stops the daemon, with the exit code that tells its kind.
public struct DaemonError: Error, CustomStringConvertible {
  public var message: String
  public var exitCode: ExitCode

  public init(_ message: String, exitCode: ExitCode) {
    self.message = message
    self.exitCode = exitCode
  }

  public var description: String { message }
}
