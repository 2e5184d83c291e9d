extension TM1637DisplayOptions {
  /// The keys of a tm1637 display.
  static let keys = ["clk", "dio", "bit-delay", "colon", "grid-order"]

  /// Reads the keys of a tm1637 display; nil when a line or `digits` is missing or wrong.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let clock = reader.gpioLine("clk")
    let data = reader.gpioLine("dio")
    let bitDelay = reader.duration("bit-delay", in: .microseconds(1)...(.milliseconds(10)))
    let colon = reader.boolean("colon")
    let digits = reader.displayDigits(
      limit: (maximumDigits, "a TM1637 drives \(maximumDigits) digits"))
    guard let clock, let data, let digits else { return nil }
    return Self(
      clock: clock, data: data, bitDelay: bitDelay ?? .microseconds(100), colon: colon ?? false,
      gridOrder: reader.gridOrder(digits: digits))
  }
}
