import ScoreboardMQTT

/// The fields of an `application/x-www-form-urlencoded` body or a query string
/// (`code=123456&name=scorer`), and the cookies of a `Cookie` header.
public enum FormFields {
  /// The longest text a field's value may decode to; longer ones are refused.
  public static let valueLimit = 256

  /// Why a form cannot be read.
  public struct Problem: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
      self.description = description
    }
  }

  /// Every `name=value` pair of `bytes`, percent-encoding and `+` undone, in order.
  ///
  /// - Throws: `Problem` for a bad escape (`%G1`, a `%` at the end), a NUL, text that is
  ///   not UTF-8, or a value beyond `valueLimit` bytes.
  public static func parse(_ bytes: [UInt8]) throws(Problem) -> [(name: String, value: String)] {
    var fields: [(name: String, value: String)] = []
    for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let parts = pair.split(
        separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      let name = try decode(Array(parts[0]))
      let value = parts.count > 1 ? try decode(Array(parts[1])) : ""
      fields.append((name, value))
    }
    return fields
  }

  /// The first value of field `name` in `bytes`, or nil.
  public static func value(_ name: String, in bytes: [UInt8]) throws(Problem) -> String? {
    try parse(bytes).first { $0.name == name }?.value
  }

  /// The value of cookie `name` in a `Cookie` header (`a=1; sbd_device=abc`), or nil.
  public static func cookie(_ name: String, in header: String) -> String? {
    for part in header.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2, pair[0].trimmingSpaces == name else { continue }
      var value = pair[1].trimmingSpaces
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast())
      }
      return value
    }
    return nil
  }

  private static func decode(_ bytes: [UInt8]) throws(Problem) -> String {
    var decoded: [UInt8] = []
    var index = 0
    while index < bytes.count {
      var byte = bytes[index]
      if byte == UInt8(ascii: "+") {
        byte = UInt8(ascii: " ")
      } else if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, let value = Hex.byte(bytes[index + 1], bytes[index + 2])
        else { throw Problem(description: "a bad percent-escape in the form") }
        byte = value
        index += 2
      }
      guard byte != 0 else { throw Problem(description: "a NUL in the form") }
      decoded.append(byte)
      guard decoded.count <= valueLimit else {
        throw Problem(description: "a form field longer than \(valueLimit) bytes")
      }
      index += 1
    }
    guard let text = String(validatingUTF8Bytes: decoded) else {
      throw Problem(description: "a form field that is not UTF-8")
    }
    return text
  }
}

extension Substring {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
