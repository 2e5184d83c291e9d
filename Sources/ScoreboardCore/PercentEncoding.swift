/// Text as one word of a line: bytes other than printable ASCII, `%`, and nothing else
/// are written `%XX`, so a space, a tab or a line break never splits or ends the line.
enum PercentEncoding {
  /// `text` with every byte outside `!`...`~` and every `%` percent-encoded.
  static func word(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") {
        bytes.append(byte)
      } else {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hexDigit(byte >> 4))
        bytes.append(hexDigit(byte & 0x0F))
      }
    }
    // An empty text would be no word at all: it is written as `%` alone.
    return bytes.isEmpty ? "%" : String(decoding: bytes, as: UTF8.self)
  }

  /// The text of a word `word(_:)` made; nil when it is not one (a bad escape, bytes
  /// that are not UTF-8).
  static func decode(_ word: String) -> String? {
    if word == "%" { return "" }
    var bytes: [UInt8] = []
    var iterator = word.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
