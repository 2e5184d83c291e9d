/// A line of text with placeholders, for displays and controllers that take text:
/// `{home}-{away} P{period}\r\n`.
///
/// `{NAME}` stands for what the field NAME shows (as wide as the field), `{brightness}`
/// for the brightness 0-15; `{{` and `}}` are literal braces; `\r`, `\n`, `\t`, `\\`
/// and `\xHH` are escapes for control bytes.
public struct TextTemplate: Hashable, Sendable {
  /// A part of the template.
  public enum Piece: Hashable, Sendable {
    /// Bytes sent as they are.
    case literal([UInt8])
    /// What the named field shows.
    case field(String)
    /// The brightness, 0-15.
    case brightness
  }

  public var pieces: [Piece]

  public init(pieces: [Piece]) {
    self.pieces = pieces
  }

  /// The field names the template refers to, in order of appearance.
  public var fieldNames: [String] {
    pieces.compactMap { piece in
      if case .field(let name) = piece { name } else { nil }
    }
  }

  /// Parses the text form of a template.
  ///
  /// - Throws: `TemplateSyntaxError` naming what is wrong: an unclosed or empty
  ///   placeholder, a stray `}`, or an unknown escape.
  public init(parsing text: String) throws(TemplateSyntaxError) {
    var pieces: [Piece] = []
    var literal: [UInt8] = []
    var characters = Array(text.unicodeScalars)[...]
    func flush() {
      if !literal.isEmpty {
        pieces.append(.literal(literal))
        literal = []
      }
    }
    while let scalar = characters.popFirst() {
      switch scalar {
      case "{":
        if characters.first == "{" {
          characters.removeFirst()
          literal.append(UInt8(ascii: "{"))
          continue
        }
        guard let close = characters.firstIndex(of: "}") else {
          throw TemplateSyntaxError(description: "'{' without a closing '}'")
        }
        let name = String(String.UnicodeScalarView(characters[..<close]))
        characters = characters[characters.index(after: close)...]
        guard !name.isEmpty, !name.contains("{") else {
          throw TemplateSyntaxError(description: "'{\(name)}' does not name a field")
        }
        flush()
        pieces.append(name == "brightness" ? .brightness : .field(name))
      case "}":
        guard characters.first == "}" else {
          throw TemplateSyntaxError(
            description: "'}' without an opening '{' (write '}}' for a brace)")
        }
        characters.removeFirst()
        literal.append(UInt8(ascii: "}"))
      case "\\":
        guard let escape = characters.popFirst() else {
          throw TemplateSyntaxError(description: "'\\' at the end; write '\\\\' for a backslash")
        }
        switch escape {
        case "r": literal.append(0x0D)
        case "n": literal.append(0x0A)
        case "t": literal.append(0x09)
        case "\\": literal.append(UInt8(ascii: "\\"))
        case "x":
          let digits = String(String.UnicodeScalarView(characters.prefix(2)))
          guard digits.count == 2, let byte = UInt8(digits, radix: 16) else {
            throw TemplateSyntaxError(description: "'\\x' needs two hex digits, as in '\\x02'")
          }
          characters = characters.dropFirst(2)
          literal.append(byte)
        default:
          throw TemplateSyntaxError(
            description: "unknown escape '\\\(escape)'; expected \\r, \\n, \\t, \\\\ or \\xHH")
        }
      default:
        literal += Array(String(scalar).utf8)
      }
    }
    flush()
    self.pieces = pieces
  }

  /// The bytes of the template for a frame: each field as `Frame.fieldTexts` has it
  /// (spaces when the frame is blank), the brightness as a number.
  public func render(_ frame: Frame) -> [UInt8] {
    var bytes: [UInt8] = []
    for piece in pieces {
      switch piece {
      case .literal(let literal):
        bytes += literal
      case .field(let name):
        let text = frame.fieldTexts[name] ?? ""
        bytes +=
          frame.isBlank ? Array(repeating: UInt8(ascii: " "), count: text.count) : Array(text.utf8)
      case .brightness:
        bytes += Array(String(frame.brightness).utf8)
      }
    }
    return bytes
  }
}

/// Why a text is not a valid template.
public struct TemplateSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  public var description: String

  public init(description: String) {
    self.description = description
  }
}
