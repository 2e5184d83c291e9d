extension StringProtocol {
  /// The text with each control character written as a Swift escape (`\u{1B}` for ESC),
  /// so that a message echoing bytes from a file or a device is shown on a terminal or
  /// in the journal rather than acted on. Control characters are C0 (tab and line breaks
  /// included), DEL and C1.
  public var escapingControlCharacters: String {
    guard unicodeScalars.contains(where: Self.isControlCharacter) else { return String(self) }
    var escaped = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      if Self.isControlCharacter(scalar) {
        escaped.append(
          contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        escaped.append(scalar)
      }
    }
    return String(escaped)
  }

  private static func isControlCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
