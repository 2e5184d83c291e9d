/// Why a text is not the JSON value it should be, and at which byte.
///
/// The description reads like `JSON at byte 12: expected ',' or '}', found 'x'`; bytes
/// from the text are shown as characters only when they are printable ASCII.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public enum Problem: Hashable, Sendable {
    /// Something else was expected here; `found` is the byte there, nil at the end.
    case expected(String, found: UInt8?)
    /// The text is longer than the parser reads.
    case tooLong(limit: Int)
    /// Arrays and objects nest deeper than the parser goes.
    case tooDeep(limit: Int)
    /// A number too large for a `Double` (`1e400`).
    case numberOutOfRange
    /// A byte that does not begin or continue a UTF-8 character.
    case invalidUTF8
    /// A control character (below U+0020) in a string, where it must be escaped.
    case controlCharacter
    /// A `\uD800`-`\uDFFF` escape that is not half of a surrogate pair.
    case loneSurrogate
    /// A key that the object has already.
    case duplicateKey(String)
  }

  /// The offset of the byte concerned, from 0.
  public var offset: Int
  public var problem: Problem

  public init(offset: Int, problem: Problem) {
    self.offset = offset
    self.problem = problem
  }

  public var description: String {
    let message =
      switch problem {
      case .expected(let expected, let found):
        "expected \(expected), found \(found.map(Self.describe) ?? "the end of the text")"
      case .tooLong(let limit): "the text is longer than \(limit) bytes"
      case .tooDeep(let limit): "arrays and objects nest deeper than \(limit) levels"
      case .numberOutOfRange: "the number is out of range"
      case .invalidUTF8: "invalid UTF-8"
      case .controlCharacter: "a control character in a string (it must be escaped)"
      case .loneSurrogate: "a \\u escape of half a surrogate pair without the other half"
      case .duplicateKey(let key): "the key \(JSONText.string(key)) again"
      }
    return "JSON at byte \(offset): \(message)"
  }

  /// `'x'` for printable ASCII, `byte 0xC3` for anything else.
  private static func describe(_ byte: UInt8) -> String {
    if (0x21...0x7E).contains(byte) {
      return "'\(Character(Unicode.Scalar(byte)))'"
    }
    if byte == 0x20 {
      return "a space"
    }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x" + (hex.count == 1 ? "0" : "") + hex
  }
}
