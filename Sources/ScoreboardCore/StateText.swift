/// The bytes of a state file's text as `SavedState.encodedBytes()` builds them: words,
/// decimal numbers, spaces and line ends appended in place.
struct StateText {
  /// The text so far.
  private(set) var bytes: [UInt8] = []

  init() {
    bytes.reserveCapacity(512)
  }

  mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func append(_ word: String) {
    bytes.append(contentsOf: word.utf8)
  }

  /// `number` in decimal, with a `-` when negative.
  mutating func append(_ number: Int) {
    append(Int64(number))
  }

  /// `number` in decimal, with a `-` when negative.
  mutating func append(_ number: Int64) {
    bytes.appendDecimal(number)
  }

  mutating func space() {
    bytes.append(UInt8(ascii: " "))
  }

  mutating func newline() {
    bytes.append(UInt8(ascii: "\n"))
  }
}
