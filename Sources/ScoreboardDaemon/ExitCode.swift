/// Exit codes from `sysexits.h`, which systemd units and scripts can tell apart: every
/// code the daemon ends with, and only those (`scoreboardd --help`, scoreboardd(8) and
/// the README list them; a test holds them to it).
///
/// A device that fails while in use never ends the daemon: a display or a horn is taken
/// offline and opened again, a USB keypad unplugged is waited for, another keypad that
/// fails is logged and no longer read, and the scoreboard runs on with what is left.
/// There is no code for it (`EX_IOERR`, 74, is never used).
public enum ExitCode: Int32, CaseIterable, Sendable {
  case success = 0
  /// `EX_USAGE`: the command line was wrong.
  case usage = 64
  /// `EX_UNAVAILABLE`: a keypad the configuration requires is missing, or the control
  /// socket cannot be had.
  case unavailable = 69
  /// `EX_SOFTWARE`: an internal error.
  case software = 70
  /// `EX_CONFIG`: the configuration is missing or invalid, a folder it names is not safe,
  /// or a board with `[mqtt]` cannot load libmosquitto.
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
