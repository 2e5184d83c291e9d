/// The one answer line every control request gets: `ok` with an optional text, `error`
/// with a message, or, for a change carried out but not saved, `unsaved` with the text
/// and why.
public enum ControlResponse: Hashable, Sendable {
  /// The request was carried out, and a change it made is in the state file: it survives
  /// a power cut. The text (possibly empty) is what it answers.
  case ok(String)
  /// The change was carried out and shows, but the state file could not be written: it
  /// lives in memory only until saving works again. The text is what `ok` would answer;
  /// `reason` says why it is not saved.
  case unsaved(String, reason: String)
  /// The request was refused or failed; the message says why.
  case error(String)

  /// What separates the text of an `unsaved` answer from its reason.
  static let unsavedSeparator = "; not saved: "

  /// The line, without its newline: `ok`, `ok home 12`, `unsaved home 12; not saved:
  /// REASON`, `error no field named 'x'`.
  public var line: String {
    switch self {
    case .ok(let text): text.isEmpty ? "ok" : "ok \(text)"
    case .unsaved(let text, let reason):
      (text.isEmpty ? "unsaved" : "unsaved \(text)") + Self.unsavedSeparator + reason
    case .error(let message): "error \(message)"
    }
  }

  /// Parses an answer line (without its newline).
  ///
  /// - Throws: `ControlSyntaxError` for a line that is not an answer, such as an `event`
  ///   line.
  public init(parsing line: String) throws(ControlSyntaxError) {
    if line == "ok" {
      self = .ok("")
    } else if line.hasPrefix("ok ") {
      self = .ok(String(line.dropFirst(3)))
    } else if line.hasPrefix("error ") {
      self = .error(String(line.dropFirst(6)))
    } else if let unsaved = Self.unsaved(parsing: line) {
      self = unsaved
    } else {
      throw ControlSyntaxError(
        description: "expected an answer 'ok ...', 'unsaved ...' or 'error ...', found '\(line)'")
    }
  }

  /// `unsaved TEXT; not saved: REASON`, or `unsaved; not saved: REASON`.
  private static func unsaved(parsing line: String) -> ControlResponse? {
    guard line.hasPrefix("unsaved"), let separator = line.firstRange(of: unsavedSeparator)
    else { return nil }
    let text = line[line.index(line.startIndex, offsetBy: 7)..<separator.lowerBound]
    guard text.isEmpty || text.hasPrefix(" ") else { return nil }
    return .unsaved(String(text.dropFirst()), reason: String(line[separator.upperBound...]))
  }
}
