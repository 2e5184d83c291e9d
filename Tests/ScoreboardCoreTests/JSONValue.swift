/// A JSON value decoded by a small strict parser, to check what `ControlStatus.json()`
/// writes without trusting the writer's own idea of JSON.
indirect enum JSONValue: Equatable {
  case object([(String, JSONValue)])
  case array([JSONValue])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    case (.array(let a), .array(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.null, .null): true
    default: false
    }
  }

  struct SyntaxError: Error, CustomStringConvertible {
    var description: String
  }

  /// Parses `text`, which must be exactly one JSON value.
  init(parsing text: String) throws {
    var parser = Parser(scalars: Array(text.unicodeScalars))
    self = try parser.value()
    guard parser.index == parser.scalars.count else {
      throw SyntaxError(description: "text after the value at \(parser.index)")
    }
  }

  /// The member `key` of an object.
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  private struct Parser {
    let scalars: [Unicode.Scalar]
    var index = 0

    mutating func value() throws -> JSONValue {
      guard index < scalars.count else { throw SyntaxError(description: "unexpected end") }
      switch scalars[index] {
      case "{":
        index += 1
        var members: [(String, JSONValue)] = []
        if try take("}") { return .object(members) }
        repeat {
          let key = try string()
          try expect(":")
          members.append((key, try value()))
        } while try take(",")
        try expect("}")
        return .object(members)
      case "[":
        index += 1
        var elements: [JSONValue] = []
        if try take("]") { return .array(elements) }
        repeat { elements.append(try value()) } while try take(",")
        try expect("]")
        return .array(elements)
      case "\"": return .string(try string())
      case "t":
        try literal("true")
        return .bool(true)
      case "f":
        try literal("false")
        return .bool(false)
      case "n":
        try literal("null")
        return .null
      default:
        let start = index
        while index < scalars.count, "-+.eE0123456789".unicodeScalars.contains(scalars[index]) {
          index += 1
        }
        guard let number = Double(String(String.UnicodeScalarView(scalars[start..<index]))) else {
          throw SyntaxError(description: "unexpected '\(scalars[start])' at \(start)")
        }
        return .number(number)
      }
    }

    mutating func string() throws -> String {
      try expect("\"")
      var result = String.UnicodeScalarView()
      while true {
        guard index < scalars.count else { throw SyntaxError(description: "unterminated string") }
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "\"": return String(result)
        case "\\":
          guard index < scalars.count else { throw SyntaxError(description: "bad escape") }
          let escape = scalars[index]
          index += 1
          switch escape {
          case "\"", "\\", "/": result.append(escape)
          case "n": result.append("\n")
          case "r": result.append("\r")
          case "t": result.append("\t")
          case "b": result.append("\u{8}")
          case "f": result.append("\u{C}")
          case "u":
            let hex = String(
              String.UnicodeScalarView(scalars[index..<min(index + 4, scalars.count)]))
            guard hex.count == 4, let code = UInt32(hex, radix: 16),
              let decoded = Unicode.Scalar(code)
            else { throw SyntaxError(description: "bad \\u escape") }
            index += 4
            result.append(decoded)
          default: throw SyntaxError(description: "bad escape \\\(escape)")
          }
        case _ where scalar.value < 0x20:
          throw SyntaxError(description: "raw control character in a string")
        default: result.append(scalar)
        }
      }
    }

    mutating func take(_ scalar: Unicode.Scalar) throws -> Bool {
      guard index < scalars.count, scalars[index] == scalar else { return false }
      index += 1
      return true
    }

    mutating func expect(_ scalar: Unicode.Scalar) throws {
      guard try take(scalar) else {
        throw SyntaxError(description: "expected '\(scalar)' at \(index)")
      }
    }

    mutating func literal(_ word: String) throws {
      for scalar in word.unicodeScalars {
        try expect(scalar)
      }
    }
  }
}
