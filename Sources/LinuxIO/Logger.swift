@preconcurrency import Glibc
import ScoreboardSettings

/// Writes log messages, one line each, to a descriptor (normally standard error).
///
/// A logger is a value passed to whoever logs; there is no global one.
public struct Logger: Sendable {
  /// How lines are written.
  public enum Style: Sendable {
    /// `<4>message`: the syslog priority prefix that journald reads from a service's
    /// standard error.
    case journal
    /// `scoreboardd: warning: message`, for a person at a terminal.
    case terminal

    /// `.journal` when the environment variable `JOURNAL_STREAM` is set (systemd
    /// connected the output to the journal) or `descriptor` is not a terminal;
    /// `.terminal` otherwise.
    public static func automatic(for descriptor: FileDescriptor) -> Style {
      getenv("JOURNAL_STREAM") != nil || !descriptor.isTerminal ? .journal : .terminal
    }
  }

  /// Where lines go; the logger does not own it.
  public let output: FileDescriptor
  /// The program name that starts `.terminal` lines.
  public let programName: String
  /// Messages less important than this are dropped.
  public var minimumLevel: LogLevel
  /// How lines are written.
  public var style: Style

  /// A logger writing to `output` (not owned).
  ///
  /// - Parameters:
  ///   - programName: Starts each `.terminal` line.
  ///   - minimumLevel: Messages less important than this are dropped.
  ///   - style: `.journal` or `.terminal`; by default chosen for `output`.
  public init(
    output: FileDescriptor = .standardError, programName: String,
    minimumLevel: LogLevel = .info, style: Style? = nil
  ) {
    self.output = output
    self.programName = programName
    self.minimumLevel = minimumLevel
    self.style = style ?? .automatic(for: output)
  }

  /// Writes `message` at `level` if the level is at least `minimumLevel`. Line breaks in
  /// the message become spaces, so one message is one line. Write errors are ignored:
  /// there is nowhere to report them.
  public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard level >= minimumLevel else { return }
    try? output.writeAll(line(level, message()))
  }

  /// The line `log` writes for `message` at `level`, with its newline.
  public func line(_ level: LogLevel, _ message: String) -> String {
    let text = String(message.map { $0.isNewline ? " " : $0 })
    switch style {
    case .journal: return "<\(level.rawValue)>\(text)\n"
    case .terminal: return "\(programName): \(level): \(text)\n"
    }
  }

  /// Logs `message` at `.error`.
  public func error(_ message: @autoclosure () -> String) {
    log(.error, message())
  }

  /// Logs `message` at `.warning`.
  public func warning(_ message: @autoclosure () -> String) {
    log(.warning, message())
  }

  /// Logs `message` at `.notice`.
  public func notice(_ message: @autoclosure () -> String) {
    log(.notice, message())
  }

  /// Logs `message` at `.info`.
  public func info(_ message: @autoclosure () -> String) {
    log(.info, message())
  }

  /// Logs `message` at `.debug`.
  public func debug(_ message: @autoclosure () -> String) {
    log(.debug, message())
  }
}
