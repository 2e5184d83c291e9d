import ScoreboardCore

/// One problem in a configuration file, located by file, line, section and key.
///
/// Its text reads `FILE:LINE: [section] key: message`; the section and key are left out
/// when the problem has none. Control characters the file put in any of them are kept
/// as escapes (`\u{1B}`), so that the message cannot drive the terminal or the journal
/// that shows it, and a password written into a URL (`mqtt://user:password@host`) is
/// masked (`mqtt://user:***@host`) wherever the section or the message quotes it.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// The file's path, as given to `Configuration.parse(_:path:)`.
  public var file: String
  /// The line, from 1.
  public var line: Int
  /// The section's title without brackets (`field home`), if the problem is in one.
  public var section: String?
  /// The key, if the problem is in one key's value.
  public var key: String?
  /// What was expected and what was found.
  public var message: String

  /// Creates a diagnostic; control characters in the texts become escapes, and the user
  /// information of URLs in the section and the message is masked.
  public init(file: String, line: Int, section: String? = nil, key: String? = nil, message: String)
  {
    self.file = file.escapingControlCharacters
    self.line = line
    self.section = section.map { URLCredentials.masked(in: $0).escapingControlCharacters }
    self.key = key?.escapingControlCharacters
    self.message = URLCredentials.masked(in: message).escapingControlCharacters
  }

  /// The diagnostic as one line: `demo.conf:12: [field home] digits: expected ...`.
  public var description: String {
    var location = "\(file):\(line):"
    if let section {
      location += " [\(section)]"
      if let key {
        location += " \(key)"
      }
      location += ":"
    } else if let key {
      location += " \(key):"
    }
    return location + " " + message
  }
}
