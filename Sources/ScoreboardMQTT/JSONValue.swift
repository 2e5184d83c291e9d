/// A JSON value read by a small, strict parser meant for payloads from the network.
///
/// The parser takes exactly one value (RFC 8259) and nothing after it but whitespace; it
/// refuses what a lenient one would guess at: invalid UTF-8, control characters in
/// strings, lone surrogates, leading zeros, numbers beyond `Double`, duplicate keys in
/// an object, nesting deeper than `maximumDepth` and input longer than `maximumBytes`.
/// Every error names the byte offset and what was expected there (`JSONError`).
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  /// The members in the order the text has them; keys are unique.
  case object([Member])

  /// One member of an object: a key and its value.
  public struct Member: Hashable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// How deeply arrays and objects may nest by default.
  public static let maximumDepth = 32
  /// The longest text `parse` reads by default, in bytes.
  public static let maximumBytes = 65_536
  /// The largest magnitude up to which every integer is exact as a `Double` (2^53).
  static let exactIntegerLimit: Double = 9_007_199_254_740_992

  /// Parses `text`, which must hold exactly one JSON value.
  public static func parse(
    _ text: String, maximumDepth: Int = JSONValue.maximumDepth,
    maximumBytes: Int = JSONValue.maximumBytes
  ) throws(JSONError) -> JSONValue {
    try parse(Array(text.utf8), maximumDepth: maximumDepth, maximumBytes: maximumBytes)
  }

  /// Parses `bytes` (UTF-8), which must hold exactly one JSON value.
  public static func parse(
    _ bytes: [UInt8], maximumDepth: Int = JSONValue.maximumDepth,
    maximumBytes: Int = JSONValue.maximumBytes
  ) throws(JSONError) -> JSONValue {
    guard bytes.count <= maximumBytes else {
      throw JSONError(offset: maximumBytes, problem: .tooLong(limit: maximumBytes))
    }
    var parser = Parser(bytes: bytes, maximumDepth: maximumDepth)
    parser.skipWhitespace()
    let value = try parser.value(depth: 1)
    parser.skipWhitespace()
    guard parser.offset == bytes.count else {
      throw parser.error(expected: "the end of the text")
    }
    return value
  }

  // MARK: - Reading values

  /// The value of member `key` of an object; nil for a missing key or a value that is
  /// not an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The members of an object; nil for other values.
  public var members: [Member]? {
    if case .object(let members) = self { members } else { nil }
  }

  /// The elements of an array; nil for other values.
  public var elements: [JSONValue]? {
    if case .array(let elements) = self { elements } else { nil }
  }

  /// The text of a string; nil for other values.
  public var stringValue: String? {
    if case .string(let text) = self { text } else { nil }
  }

  /// The value of `true` or `false`; nil for other values.
  public var boolValue: Bool? {
    if case .bool(let value) = self { value } else { nil }
  }

  /// A number that is an integer of magnitude below 2^53, where `Double` holds every
  /// integer exactly (so the text said this very integer); nil for anything else
  /// (`1.5`, `1e300`, `"1"`).
  public var intValue: Int64? {
    guard case .number(let value) = self, value.rounded(.towardZero) == value,
      value.magnitude < Self.exactIntegerLimit
    else { return nil }
    return Int64(value)
  }

  /// Whether the value is `null`.
  public var isNull: Bool { self == .null }

  /// The value as compact JSON text; object members in their order.
  public var jsonText: String {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .number(let value): JSONText.number(value)
    case .string(let text): JSONText.string(text)
    case .array(let elements): "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
    case .object(let members):
      "{"
        + members.map { JSONText.string($0.key) + ":" + $0.value.jsonText }
        .joined(separator: ",") + "}"
    }
  }

  // MARK: - The parser

  /// Reads one value at a time from UTF-8 bytes, keeping the offset for errors.
  private struct Parser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var offset = 0

    init(bytes: [UInt8], maximumDepth: Int) {
      self.bytes = bytes
      self.maximumDepth = maximumDepth
    }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func error(expected: String) -> JSONError {
      JSONError(offset: offset, problem: .expected(expected, found: current))
    }

    func error(_ problem: JSONError.Problem, at offset: Int) -> JSONError {
      JSONError(offset: offset, problem: problem)
    }

    mutating func skipWhitespace() {
      while let byte = current,
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
          || byte == UInt8(ascii: "\r")
      {
        offset += 1
      }
    }

    /// Takes `byte` if it is next (after whitespace).
    mutating func take(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard current == byte else { return false }
      offset += 1
      return true
    }

    mutating func expect(_ byte: UInt8, _ description: String) throws(JSONError) {
      guard take(byte) else { throw error(expected: description) }
    }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
      skipWhitespace()
      guard let byte = current else { throw error(expected: "a value") }
      switch byte {
      case UInt8(ascii: "{"):
        return try object(depth: depth)
      case UInt8(ascii: "["):
        return try array(depth: depth)
      case UInt8(ascii: "\""):
        return .string(try string())
      case UInt8(ascii: "t"):
        try literal("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try literal("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try literal("null")
        return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return .number(try number())
      default:
        throw error(expected: "a value")
      }
    }

    mutating func literal(_ word: String) throws(JSONError) {
      let start = offset
      for expected in word.utf8 {
        guard current == expected else {
          offset = start
          throw error(expected: "a value")
        }
        offset += 1
      }
    }

    mutating func object(depth: Int) throws(JSONError) -> JSONValue {
      guard depth <= maximumDepth else {
        throw error(.tooDeep(limit: maximumDepth), at: offset)
      }
      offset += 1  // {
      var members: [Member] = []
      var keys: Set<String> = []
      if take(UInt8(ascii: "}")) { return .object(members) }
      repeat {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw error(expected: "a key in quotes") }
        let keyOffset = offset
        let key = try string()
        guard keys.insert(key).inserted else {
          throw error(.duplicateKey(key), at: keyOffset)
        }
        try expect(UInt8(ascii: ":"), "':' after the key")
        members.append(Member(key, try value(depth: depth + 1)))
      } while take(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"), "',' or '}'")
      return .object(members)
    }

    mutating func array(depth: Int) throws(JSONError) -> JSONValue {
      guard depth <= maximumDepth else {
        throw error(.tooDeep(limit: maximumDepth), at: offset)
      }
      offset += 1  // [
      var elements: [JSONValue] = []
      if take(UInt8(ascii: "]")) { return .array(elements) }
      repeat {
        elements.append(try value(depth: depth + 1))
      } while take(UInt8(ascii: ","))
      try expect(UInt8(ascii: "]"), "',' or ']'")
      return .array(elements)
    }

    /// A number as RFC 8259 writes it: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func number() throws(JSONError) -> Double {
      let start = offset
      if current == UInt8(ascii: "-") { offset += 1 }
      guard let first = current, isDigit(first) else { throw error(expected: "a digit") }
      offset += 1
      if first != UInt8(ascii: "0") {
        skipDigits()
      } else if let next = current, isDigit(next) {
        throw error(expected: "'.', 'e' or the end of the number (no leading zeros)")
      }
      if current == UInt8(ascii: ".") {
        offset += 1
        try requireDigits()
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        offset += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
        try requireDigits()
      }
      let text = String(decoding: bytes[start..<offset], as: UTF8.self)
      guard let value = Double(text), value.isFinite else {
        throw error(.numberOutOfRange, at: start)
      }
      return value
    }

    func isDigit(_ byte: UInt8) -> Bool {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    mutating func skipDigits() {
      while let byte = current, isDigit(byte) { offset += 1 }
    }

    mutating func requireDigits() throws(JSONError) {
      guard let byte = current, isDigit(byte) else { throw error(expected: "a digit") }
      skipDigits()
    }

    /// A string in quotes, with every escape, as valid Unicode.
    mutating func string() throws(JSONError) -> String {
      offset += 1  // "
      var scalars = String.UnicodeScalarView()
      while true {
        guard let byte = current else { throw error(expected: "'\"' to end the string") }
        switch byte {
        case UInt8(ascii: "\""):
          offset += 1
          return String(scalars)
        case UInt8(ascii: "\\"):
          scalars.append(try escape())
        case 0..<0x20:
          throw error(.controlCharacter, at: offset)
        case 0..<0x80:
          scalars.append(Unicode.Scalar(byte))
          offset += 1
        default:
          scalars.append(try multibyteScalar())
        }
      }
    }

    /// One escape after a backslash: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` or
    /// `\uXXXX` (a surrogate pair as two of them).
    mutating func escape() throws(JSONError) -> Unicode.Scalar {
      let start = offset
      offset += 1  // backslash
      guard let byte = current else { throw error(expected: "an escape") }
      offset += 1
      switch byte {
      case UInt8(ascii: "\""): return "\""
      case UInt8(ascii: "\\"): return "\\"
      case UInt8(ascii: "/"): return "/"
      case UInt8(ascii: "b"): return "\u{08}"
      case UInt8(ascii: "f"): return "\u{0C}"
      case UInt8(ascii: "n"): return "\n"
      case UInt8(ascii: "r"): return "\r"
      case UInt8(ascii: "t"): return "\t"
      case UInt8(ascii: "u"):
        let unit = try hexUnit()
        switch unit {
        case 0xD800...0xDBFF:
          guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count,
            bytes[offset + 1] == UInt8(ascii: "u")
          else { throw error(.loneSurrogate, at: start) }
          offset += 2
          let low = try hexUnit()
          guard (0xDC00...0xDFFF).contains(low) else { throw error(.loneSurrogate, at: start) }
          let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          return Unicode.Scalar(value)!
        case 0xDC00...0xDFFF:
          throw error(.loneSurrogate, at: start)
        default:
          return Unicode.Scalar(unit)!
        }
      default:
        offset -= 1
        throw error(expected: "an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
      }
    }

    /// Four hexadecimal digits.
    mutating func hexUnit() throws(JSONError) -> UInt32 {
      var unit: UInt32 = 0
      for _ in 0..<4 {
        guard let byte = current else { throw error(expected: "a hexadecimal digit") }
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw error(expected: "a hexadecimal digit")
        }
        unit = unit << 4 | UInt32(digit)
        offset += 1
      }
      return unit
    }

    /// A scalar of two to four UTF-8 bytes: no overlong forms, no surrogates, nothing
    /// past U+10FFFF.
    mutating func multibyteScalar() throws(JSONError) -> Unicode.Scalar {
      let start = offset
      let lead = bytes[offset]
      let count: Int
      var value: UInt32
      let smallest: UInt32
      switch lead {
      case 0xC2...0xDF: (count, value, smallest) = (2, UInt32(lead & 0x1F), 0x80)
      case 0xE0...0xEF: (count, value, smallest) = (3, UInt32(lead & 0x0F), 0x800)
      case 0xF0...0xF4: (count, value, smallest) = (4, UInt32(lead & 0x07), 0x10000)
      default: throw error(.invalidUTF8, at: start)
      }
      guard start + count <= bytes.count else { throw error(.invalidUTF8, at: start) }
      for index in (start + 1)..<(start + count) {
        let byte = bytes[index]
        guard byte & 0xC0 == 0x80 else { throw error(.invalidUTF8, at: start) }
        value = value << 6 | UInt32(byte & 0x3F)
      }
      guard value >= smallest, let scalar = Unicode.Scalar(value) else {
        throw error(.invalidUTF8, at: start)
      }
      offset += count
      return scalar
    }
  }
}
