/// What one line of an INI file is.
///
/// The rules are libinih's, which this file format followed first, so that every file
/// that was read before is read the same way: `#` and `;` start a comment line, ` ;` starts
/// a comment after text, `=` or `:` separates a key from its value, and whitespace around
/// keys and values is not part of them. One rule is this project's own: ` #` starts a
/// comment after a value too.
enum IniLine: Equatable {
  /// An empty line, or a comment starting with `#` or `;`.
  case blankOrComment
  /// An indented line after a key: what other INI readers take as more of that value.
  case continuation
  /// A `[section]` header: the text between the brackets, and any text after `]`.
  case section(title: String, trailingText: String)
  /// A line starting with `[` that has no `]` before the end or a ` ;` comment.
  case unclosedSection(text: String)
  /// A `key = value` or `key: value` line. The key may be empty (`= value`).
  case entry(key: String, value: String)
  /// A line that is neither of the above: it has no `=` or `:`.
  case missingSeparator(text: String)

  /// Classifies `bytes`, a line without its line break; `followsEntry` tells whether a key
  /// was read since the last section header.
  init(bytes: [UInt8], followsEntry: Bool) {
    let (start, end) = Self.trimmedBounds(bytes, in: 0..<bytes.count)
    let content = Array(bytes[start..<end])
    let text = String(decoding: content, as: UTF8.self)
    guard let first = content.first, first != UInt8(ascii: "#"), first != UInt8(ascii: ";")
    else {
      self = .blankOrComment
      return
    }
    if followsEntry && start > 0 {
      self = .continuation
    } else if first == UInt8(ascii: "[") {
      let close = Self.endOfText(content, from: 1, stoppingAt: [UInt8(ascii: "]")])
      if close < content.count && content[close] == UInt8(ascii: "]") {
        self = .section(
          title: String(decoding: content[1..<close], as: UTF8.self),
          trailingText: String(decoding: content[(close + 1)...], as: UTF8.self).trimmed())
      } else {
        self = .unclosedSection(text: text)
      }
    } else {
      let separator = Self.endOfText(
        content, from: 0, stoppingAt: [UInt8(ascii: "="), UInt8(ascii: ":")])
      guard separator < content.count, content[separator] != UInt8(ascii: ";") else {
        self = .missingSeparator(text: text)
        return
      }
      let keyBounds = Self.trimmedBounds(content, in: 0..<separator)
      let valueEnd = Self.endOfText(content, from: separator + 1, stoppingAt: [])
      let valueBounds = Self.trimmedBounds(content, in: (separator + 1)..<valueEnd)
      self = .entry(
        key: String(decoding: content[keyBounds.start..<keyBounds.end], as: UTF8.self),
        value: Self.removingHashComment(
          from: String(decoding: content[valueBounds.start..<valueBounds.end], as: UTF8.self)))
    }
  }

  /// The index of the first of `stops` from `start`, or of a `;` after whitespace (an
  /// inline comment), or the end.
  private static func endOfText(_ bytes: [UInt8], from start: Int, stoppingAt stops: [UInt8])
    -> Int
  {
    var afterSpace = false
    for index in start..<bytes.count {
      let byte = bytes[index]
      if stops.contains(byte) || (afterSpace && byte == UInt8(ascii: ";")) {
        return index
      }
      afterSpace = isSpace(byte)
    }
    return bytes.count
  }

  /// The bounds of `range` in `bytes` without the whitespace at either end.
  private static func trimmedBounds(_ bytes: [UInt8], in range: Range<Int>)
    -> (start: Int, end: Int)
  {
    let end = bytes[range].lastIndex(where: { !isSpace($0) }).map { $0 + 1 } ?? range.lowerBound
    let start = bytes[range.lowerBound..<end].firstIndex(where: { !isSpace($0) }) ?? end
    return (start, end)
  }

  /// The value up to a `#` that starts it or follows whitespace (an inline comment).
  private static func removingHashComment(from value: String) -> String {
    var previous: Character = " "
    for index in value.indices {
      if value[index] == "#" && previous.isWhitespace {
        return value[..<index].trimmed()
      }
      previous = value[index]
    }
    return value
  }

  /// Whitespace as C's `isspace` has it in the C locale: space, tab, and line break,
  /// vertical tab, form feed and carriage return.
  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }
}
