/// Why a state file cannot be read, and on which line.
///
/// The description reads like `line 4: expected 'blank on' or 'blank off', found
/// "blank maybe"`; control characters the file put in it are kept as escapes
/// (`\u{1B}`), so that it cannot drive the terminal or the journal that shows it.
public struct SavedStateError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public enum Problem: Hashable, Sendable {
    /// The file does not end with a line break: writing it stopped part-way (an empty
    /// file included).
    case truncated
    /// The first line that is not a comment is not `version N`; `found` is that line, or
    /// nil at the end of the file.
    case missingVersion(found: String?)
    /// A version this program does not read.
    case unknownVersion(String)
    /// A line that is not what `expected` describes.
    case badLine(String, expected: String)
    /// A second `field` line for the same field.
    case duplicateField(String, firstLine: Int)
    /// A second `version`, `brightness` or `blank` line.
    case duplicateSetting(String, firstLine: Int)
  }

  /// The line concerned, from 1.
  public var line: Int
  /// What is wrong with it.
  public var problem: Problem

  /// The error of `problem` on `line`.
  public init(line: Int, problem: Problem) {
    self.line = line
    self.problem = problem
  }

  /// `line N: what is wrong`, with control characters escaped.
  public var description: String {
    let message =
      switch problem {
      case .truncated:
        "truncated: the file does not end with a line break"
      case .missingVersion(let found?):
        "expected 'version \(SavedState.version)' first, found \"\(found)\""
      case .missingVersion(nil):
        "expected 'version \(SavedState.version)' first, found the end of the file"
      case .unknownVersion(let version):
        "unknown version \"\(version)\" (this program reads versions "
          + SavedState.readableVersions.joined(separator: " and ") + ")"
      case .badLine(let text, let expected):
        "expected \(expected), found \"\(text)\""
      case .duplicateField(let name, let firstLine):
        "field '\(name)' again (first on line \(firstLine))"
      case .duplicateSetting(let keyword, let firstLine):
        "'\(keyword)' again (first on line \(firstLine))"
      }
    return "line \(line): \(message.escapingControlCharacters)"
  }
}
