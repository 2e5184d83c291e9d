import ScoreboardSettings

extension MAX7219DisplayOptions {
  /// The keys of a max7219 display.
  static let keys = ["din", "clk", "load", "chips", "digit-order", "reinit-interval"]

  /// Reads the keys of a max7219 display; nil when a line or `digits` is missing or wrong,
  /// or the digits do not fill the chips (a chip left without digits would get the
  /// words meant for its neighbours).
  static func parse(_ reader: inout SectionReader) -> Self? {
    let data = reader.gpioLine("din")
    let clock = reader.gpioLine("clk")
    let load = reader.gpioLine("load")
    let givenChips = reader.integer("chips", in: 1...maximumChips)
    let digitOrder: DigitOrder? = reader.choice("digit-order")
    let reinitializeInterval = reader.reinitInterval()
    let digits = reader.displayDigits()
    guard let data, let clock, let load, let digits else { return nil }
    let neededChips = (digits + digitsPerChip - 1) / digitsPerChip
    if let givenChips, givenChips < neededChips {
      let chipCount = Listing.count(givenChips, "chip")
      reader.report(
        "\(chipCount) \(givenChips == 1 ? "drives" : "drive") at most "
          + "\(givenChips * digitsPerChip) digits (\(digitsPerChip) per MAX7219), "
          + "but digits = \(digits); expected at least \(neededChips) chips",
        key: "chips")
      return nil
    }
    if let givenChips, givenChips > neededChips {
      reader.report(
        "digits = \(digits) needs \(Listing.count(neededChips, "chip")), but the chain has "
          + "\(givenChips); every chip must show digits: set digits from "
          + "\((givenChips - 1) * digitsPerChip + 1) to \(givenChips * digitsPerChip)",
        key: "chips")
      return nil
    }
    return Self(
      data: data, clock: clock, load: load, chips: givenChips ?? neededChips,
      digitOrder: digitOrder ?? .rightToLeft,
      reinitializeInterval: reinitializeInterval)
  }
}
