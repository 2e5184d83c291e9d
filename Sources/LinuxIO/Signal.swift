@preconcurrency import Glibc

/// A POSIX signal number.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The C signal number.
  public let rawValue: CInt

  /// Wraps a signal number.
  public init(rawValue: CInt) {
    self.rawValue = rawValue
  }

  /// Ctrl-C on the controlling terminal. The corresponding C constant is `SIGINT`.
  public static let interrupt = Signal(rawValue: SIGINT)
  /// A polite request to stop (systemd's stop). The corresponding C constant is `SIGTERM`.
  public static let terminate = Signal(rawValue: SIGTERM)
  /// The terminal hung up; daemons take it as "reload the configuration". The
  /// corresponding C constant is `SIGHUP`.
  public static let hangUp = Signal(rawValue: SIGHUP)
  /// A write to a pipe or socket whose reader is gone. The corresponding C constant is
  /// `SIGPIPE`.
  public static let brokenPipe = Signal(rawValue: SIGPIPE)
  /// Free for the application. The corresponding C constant is `SIGUSR1`.
  public static let user1 = Signal(rawValue: SIGUSR1)
  /// Free for the application. The corresponding C constant is `SIGUSR2`.
  public static let user2 = Signal(rawValue: SIGUSR2)

  /// `SIGTERM` for the signals above, `signal 28` for others.
  public var description: String {
    switch self {
    case .interrupt: "SIGINT"
    case .terminate: "SIGTERM"
    case .hangUp: "SIGHUP"
    case .brokenPipe: "SIGPIPE"
    case .user1: "SIGUSR1"
    case .user2: "SIGUSR2"
    default: "signal \(rawValue)"
    }
  }

  /// Makes the whole process ignore the signal (`SIG_IGN`). Ignoring `.brokenPipe` turns
  /// a write to a closed pipe or socket into an `EPIPE` error instead of the end of the
  /// program.
  ///
  /// - Throws: `IOError` naming `sigaction`.
  public func ignore() throws {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_IGN
    sigemptyset(&action.sa_mask)
    _ = try retryOnInterrupt("sigaction") { SystemCall.setSignalAction(rawValue, &action) }
  }
}
