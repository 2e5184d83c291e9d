/// User names and passwords written into URLs (`mqtt://user:password@host`), kept out of
/// every message: the configuration is read by the daemon and checked by people, and
/// what it says goes to terminals and the journal, which others may read.
enum URLCredentials {
  /// What stands for the user information of a URL in a message: `user:***@host` for a
  /// user and a password, `***@host` for a user alone (some brokers take a token as the
  /// user name).
  static let mask = "***"

  /// The URL `text` (the whole of it, with or without `scheme://`) with its user
  /// information masked, or nil when it has none. It is everything after the scheme up to
  /// the last `@` (a password may hold `@`, `/` or `:` of its own).
  static func maskingUserInformation(ofURL text: Substring) -> String? {
    let start = text.firstRange(of: "://")?.upperBound ?? text.startIndex
    let authority = text[start...]
    guard let at = authority.lastIndex(of: "@") else { return nil }
    let information = authority[..<at]
    // The user name is shown when a password follows it after a colon; anything that may
    // be a secret (a lone name may be a token, a name with `@` or `/` may be part of
    // another URL's password) is not.
    var shown = mask
    if let colon = information.firstIndex(of: ":"), information.index(after: colon) < at {
      let user = information[..<colon]
      if !user.contains(where: { $0 == "@" || $0 == "/" || $0.isWhitespace }) {
        shown = user + ":" + mask
      }
    }
    return String(text[..<start]) + shown + String(authority[at...])
  }

  /// `message` with the user information of every URL in it masked: a URL starts at
  /// `://` and runs to the next double quote (which ends a value a message quotes) or the
  /// end of the message.
  static func masked(in message: String) -> String {
    guard message.contains("@"), message.contains("://") else { return message }
    var result = ""
    var rest = message[...]
    while let scheme = rest.firstRange(of: "://") {
      result += rest[..<scheme.lowerBound]
      let end = rest[scheme.upperBound...].firstIndex(of: "\"") ?? rest.endIndex
      let url = rest[scheme.lowerBound..<end]
      result += maskingUserInformation(ofURL: url) ?? String(url)
      rest = rest[end...]
    }
    return result + rest
  }
}
