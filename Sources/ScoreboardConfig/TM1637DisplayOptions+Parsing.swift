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
      gridOrder: gridOrder(digits: digits, reader: &reader))
  }

  /// `grid-order`, each grid of `digits` once; the grids in order when it is absent or
  /// wrong (which is reported).
  private static func gridOrder(digits: Int, reader: inout SectionReader) -> [Int] {
    let grids = Array(0..<digits)
    guard let value = reader.entry("grid-order")?.value else { return grids }
    let words = value.words()
    let order = words.compactMap { Int($0) }
    guard order.count == words.count, order.sorted() == grids else {
      reader.report(
        "expected each grid from 0 to \(digits - 1) once, the grid of each cell left to right "
          + "(digits = \(digits)), found \(Listing.found(value))", key: "grid-order")
      return grids
    }
    return order
  }
}
