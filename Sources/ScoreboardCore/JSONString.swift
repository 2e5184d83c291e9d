/// Strings written as JSON, by the status's JSON and by what boards publish.
public enum JSONString {
  /// `text` as a JSON string: quotes, backslashes and control characters (C0 and DEL)
  /// escaped, the rest as it is (UTF-8).
  public static func quoted(_ text: String) -> String {
    // Most texts (names, digits) need nothing escaped: copied whole, not scalar by scalar.
    if text.utf8.allSatisfy(needsNoEscape) {
      return "\"" + text + "\""
    }
    var escaped = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped + "\""
  }

  /// A byte of UTF-8 that stands for itself in a JSON string: not a quote, a backslash or
  /// a control character (the bytes of a multi-byte scalar are all 0x80 or more).
  private static func needsNoEscape(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F
  }
}
