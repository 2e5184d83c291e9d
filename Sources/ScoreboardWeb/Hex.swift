/// Bytes as lowercase hexadecimal text, and back.
public enum Hex {
  private static let digits = Array("0123456789abcdef".utf8)

  /// `bytes` as two lowercase hexadecimal digits each.
  public static func text(_ bytes: [UInt8]) -> String {
    String(
      decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
  }

  /// The bytes `text` spells in hexadecimal digits (either case); nil for an odd count or
  /// another character.
  public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
    let characters = Array(text.utf8)
    guard characters.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(characters.count / 2)
    for index in stride(from: 0, to: characters.count, by: 2) {
      guard let byte = byte(characters[index], characters[index + 1]) else { return nil }
      bytes.append(byte)
    }
    return bytes
  }

  /// The byte two hexadecimal digits (ASCII codes) spell; nil when either is not one.
  public static func byte(_ high: UInt8, _ low: UInt8) -> UInt8? {
    guard let high = value(high), let low = value(low) else { return nil }
    return high << 4 | low
  }

  private static func value(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
