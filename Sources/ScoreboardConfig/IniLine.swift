/// What one line of an INI file is, decided the way libinih decides it, so that the lines
/// libinih passes over in silence (sections without keys, every malformed line after the
/// first) are known too.
enum IniLine: Equatable {
  /// An empty line, or a comment starting with `#` or `;`.
  case blankOrComment
  /// An indented line after a key, which libinih takes as more of that key's value.
  case continuation
  /// A `[section]` header: the text between the brackets, and any text after `]`.
  case section(title: String, trailingText: String)
  /// A line starting with `[` that has no `]` before the end or a ` ;` comment.
  case unclosedSection(text: String)
  /// A `key = value` or `key: value` line.
  case entry
  /// A line that is neither of the above: it has no `=` or `:`.
  case missingSeparator(text: String)

  /// Classifies `bytes`, a line without its line break; `followsEntry` tells whether a key
  /// was read since the last section header (libinih's "previous name").
  init(bytes: [UInt8], followsEntry: Bool) {
    let end = bytes.lastIndex(where: { !Self.isSpace($0) }).map { $0 + 1 } ?? 0
    let start = bytes[..<end].firstIndex(where: { !Self.isSpace($0) }) ?? end
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
      self =
        separator < content.count && content[separator] != UInt8(ascii: ";")
        ? .entry : .missingSeparator(text: text)
    }
  }

  /// libinih's `find_chars_or_comment`: the index of the first of `stops`, or of a `;`
  /// after whitespace (an inline comment), or the end.
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

  /// C's `isspace` in the C locale, which libinih uses to trim.
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }
}
