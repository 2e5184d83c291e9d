extension TM1638DisplayOptions {
  /// The keys of the board's LEDs, `led-1` to `led-8`, which the configuration parser
  /// reads once the fields are known.
  static let indicatorKeys = (1...8).map { "led-\($0)" }

  /// The keys of a tm1638 display.
  static let keys =
    ["stb", "clk", "dio", "bit-delay", "grid-order"] + TM1638KeypadOptions.keys + indicatorKeys

  /// Reads the keys of a tm1638 display but its LEDs; nil when a line or `digits` is
  /// missing or wrong.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let strobe = reader.gpioLine("stb")
    let clock = reader.gpioLine("clk")
    let data = reader.gpioLine("dio")
    let bitDelay = reader.duration("bit-delay", in: .microseconds(1)...(.milliseconds(10)))
    let digits = reader.displayDigits(
      limit: (maximumDigits, "a TM1638 drives \(maximumDigits) digits"))
    let keypad = TM1638KeypadOptions.parse(&reader)
    guard let strobe, let clock, let data, let digits else { return nil }
    return Self(
      strobe: strobe, clock: clock, data: data, bitDelay: bitDelay ?? .microseconds(2),
      gridOrder: reader.gridOrder(digits: digits), keypad: keypad)
  }
}
