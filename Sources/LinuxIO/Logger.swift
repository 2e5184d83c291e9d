@preconcurrency import Glibc
import ScoreboardSettings
import Synchronization

/// Writes log messages, one line each, to the descriptor of its `LogSink` (normally
/// standard error).
///
/// A logger is a value passed to whoever logs; there is no global one. Copies share
/// their sink, so a change of `minimumLevel` (a reload) applies to every component at
/// once.
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

  /// Where lines go, shared by every copy.
  public let sink: LogSink

  /// A logger writing through `sink`.
  public init(sink: LogSink) {
    self.sink = sink
  }

  /// A logger with a sink of its own, writing to `output` (not owned).
  ///
  /// - Parameters:
  ///   - programName: Starts each `.terminal` line.
  ///   - minimumLevel: Messages less important than this are dropped.
  ///   - style: `.journal` or `.terminal`; by default chosen for `output`.
  public init(
    output: FileDescriptor = .standardError, programName: String,
    minimumLevel: LogLevel = .info, style: Style? = nil
  ) {
    sink = LogSink(
      output: output, programName: programName, minimumLevel: minimumLevel,
      style: style ?? .automatic(for: output))
  }

  /// Where lines are written; the logger does not own it.
  public var output: FileDescriptor { sink.output }

  /// How lines are written.
  public var style: Style { sink.style }

  /// Messages less important than this are dropped, by this logger and every other
  /// logger of its sink.
  public var minimumLevel: LogLevel {
    get { sink.minimumLevel }
    nonmutating set { sink.minimumLevel = newValue }
  }

  /// Writes `message` at `level` if the level is at least `minimumLevel`. Line breaks in
  /// the message become spaces, so one message is one line, and other control characters
  /// (which a file or a device may have put in a name) are written as `\u{1B}`, so that
  /// none reaches a terminal or the journal to act there. Write errors are ignored: there
  /// is nowhere to report them.
  public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard level >= sink.minimumLevel else { return }
    sink.write(line(level, message()), throttle: nil)
  }

  /// Writes `message` as `log` does, unless more than `LogSink.burst` messages of the
  /// same `throttle` key came within `LogSink.window`: for what a client or a device can
  /// cause at will, so that no flood of them fills the journal. The first message after
  /// a quiet window says how many were left out.
  public func log(
    _ level: LogLevel, throttle: String, _ message: @autoclosure () -> String
  ) {
    guard level >= sink.minimumLevel else { return }
    sink.write(line(level, message()), throttle: (throttle, level))
  }

  /// The line `log` writes for `message` at `level`, with its newline.
  public func line(_ level: LogLevel, _ message: String) -> String {
    Self.line(level, message, style: sink.style, programName: sink.programName)
  }

  static func line(_ level: LogLevel, _ message: String, style: Style, programName: String)
    -> String
  {
    let text = printable(message)
    switch style {
    case .journal: return "<\(level.rawValue)>\(text)\n"
    case .terminal: return "\(programName): \(level): \(text)\n"
    }
  }

  /// `message` on one line, with line breaks as spaces and other control characters
  /// (C0 but tab, DEL, C1) escaped.
  static func printable(_ message: String) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
        || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
    guard message.unicodeScalars.contains(where: isControl) else { return message }
    var text = String.UnicodeScalarView()
    var previous: Unicode.Scalar?
    for scalar in message.unicodeScalars {
      defer { previous = scalar }
      switch scalar {
      case "\n" where previous == "\r":
        // One line break, written `\r\n`.
        break
      case "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
        text.append(" ")
      case _ where isControl(scalar):
        text.append(
          contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      default:
        text.append(scalar)
      }
    }
    return String(text)
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

/// The one place log lines go: the descriptor, the style, the level, what throttled
/// keys have said lately, and the lines held back while the daemon serves a key.
///
/// `hold()` and `release()` bracket work that must not wait for the log: the lines
/// logged in between are written in one go at `release()`, after the displays were
/// served, so that the journal is never on the path from a key to the wire.
public final class LogSink: Sendable {
  /// The most messages of one throttle key written per `window`.
  public static let burst = 5
  /// The window of a throttle key, in nanoseconds.
  public static let window: Int64 = 60_000_000_000
  /// The most bytes held back between `hold()` and `release()`; beyond, lines are
  /// counted and left out.
  static let holdLimit = 64 * 1024

  /// Where lines are written; the sink does not own it.
  public let output: FileDescriptor
  /// The program name that starts `.terminal` lines.
  public let programName: String
  /// How lines are written.
  public let style: Logger.Style
  /// The monotonic time in nanoseconds, for the throttle windows.
  private let clock: @Sendable () -> Int64
  private let state: Mutex<State>

  private struct State {
    var minimumLevel: LogLevel
    var held: [UInt8]?
    var droppedWhileHeld = 0
    var throttles: [String: Throttle] = [:]
  }

  private struct Throttle {
    var windowStart: Int64
    var written: Int
    var suppressed: Int
  }

  /// A sink writing to `output` (not owned); `clock` gives the monotonic time in
  /// nanoseconds (a test's clock, or the kernel's).
  public init(
    output: FileDescriptor, programName: String, minimumLevel: LogLevel, style: Logger.Style,
    clock: @escaping @Sendable () -> Int64 = { MonotonicClock.now() }
  ) {
    self.clock = clock
    self.output = output
    self.programName = programName
    self.style = style
    state = Mutex(State(minimumLevel: minimumLevel))
  }

  /// Messages less important than this are dropped.
  public var minimumLevel: LogLevel {
    get { state.withLock { $0.minimumLevel } }
    set { state.withLock { $0.minimumLevel = newValue } }
  }

  /// Holds lines back until `release()`.
  public func hold() {
    state.withLock { state in
      if state.held == nil {
        state.held = []
      }
    }
  }

  /// Writes the lines held since `hold()`, in one write, and stops holding.
  public func release() {
    writeHeld(stopHolding: true)
  }

  /// Writes the lines held so far, in one write, and goes on holding.
  public func flush() {
    writeHeld(stopHolding: false)
  }

  private func writeHeld(stopHolding: Bool) {
    let bytes: [UInt8]? = state.withLock { state in
      guard var held = state.held else { return nil }
      // Most rounds log nothing: their held lines stay as they are.
      if held.isEmpty, state.droppedWhileHeld == 0, !stopHolding { return nil }
      state.held = stopHolding ? nil : []
      if state.droppedWhileHeld > 0 {
        held += Array(
          Logger.line(
            .warning, "\(state.droppedWhileHeld) log lines left out (too many at once)",
            style: style, programName: programName
          ).utf8)
        state.droppedWhileHeld = 0
      }
      return held
    }
    if let bytes, !bytes.isEmpty {
      try? output.writeAll(bytes)
    }
  }

  /// Writes `line`, or holds it; with a throttle key, only within that key's burst.
  func write(_ line: String, throttle: (key: String, level: LogLevel)?) {
    var text = line
    let now = throttle == nil ? 0 : clock()
    let direct: Bool = state.withLock { state in
      if let (key, level) = throttle {
        var entry = state.throttles[key] ?? Throttle(windowStart: now, written: 0, suppressed: 0)
        if now - entry.windowStart >= Self.window {
          if entry.suppressed > 0 {
            text =
              Logger.line(
                level, "\(entry.suppressed) more like the following left out",
                style: style, programName: programName) + text
          }
          entry = Throttle(windowStart: now, written: 0, suppressed: 0)
        }
        guard entry.written < Self.burst else {
          entry.suppressed += 1
          state.throttles[key] = entry
          return false
        }
        entry.written += 1
        state.throttles[key] = entry
        if state.throttles.count > 256 {
          state.throttles = state.throttles.filter { now - $0.value.windowStart < Self.window }
        }
      }
      guard state.held != nil else { return true }
      if state.held!.count + text.utf8.count > Self.holdLimit {
        state.droppedWhileHeld += 1
      } else {
        state.held! += text.utf8
      }
      return false
    }
    if direct {
      try? output.writeAll(text)
    }
  }
}
