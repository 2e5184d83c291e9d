/// The one answer line every control request gets: `ok` with an optional text, or
/// `error` with a message.
public enum ControlResponse: Hashable, Sendable {
  /// The request was carried out; the text (possibly empty) is what it answers.
  case ok(String)
  /// The request was refused or failed; the message says why.
  case error(String)

  /// The line, without its newline: `ok`, `ok home 12`, `error no field named 'x'`.
  public var line: String {
    switch self {
    case .ok(let text): text.isEmpty ? "ok" : "ok \(text)"
    case .error(let message): "error \(message)"
    }
  }

  /// Parses an answer line (without its newline).
  ///
  /// - Throws: `ControlSyntaxError` for a line that starts with neither `ok` nor `error`,
  ///   such as an `event` line.
  public init(parsing line: String) throws(ControlSyntaxError) {
    if line == "ok" {
      self = .ok("")
    } else if line.hasPrefix("ok ") {
      self = .ok(String(line.dropFirst(3)))
    } else if line.hasPrefix("error ") {
      self = .error(String(line.dropFirst(6)))
    } else {
      throw ControlSyntaxError(
        description: "expected an answer 'ok ...' or 'error ...', found '\(line)'")
    }
  }
}
