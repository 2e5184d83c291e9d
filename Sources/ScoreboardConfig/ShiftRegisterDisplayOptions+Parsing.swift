import ScoreboardSettings

extension ShiftRegisterDisplayOptions {
  /// The keys of a shift-register display.
  static let keys = ["ser", "srclk", "rclk", "oe", "segments", "first-register", "invert"]

  /// The boards whose segment order `segments` may name instead of listing it.
  ///
  /// The SparkFun Large Digit Driver (a TPIC6C596 per digit) takes a=bit 0, f=1, g=2,
  /// e=3, d=4, c=5, b=6, dp=7 shifted most significant bit first, which leaves bit 0 on QA.
  static let segmentOrderPresets: [(name: String, order: [SegmentName])] = [
    ("sparkfun-large-digit-driver", [.a, .f, .g, .e, .d, .c, .b, .dp])
  ]

  /// Reads the keys of a shift-register display; nil when a line is missing or wrong.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let data = reader.gpioLine("ser")
    let clock = reader.gpioLine("srclk")
    let latch = reader.gpioLine("rclk")
    let outputEnable = reader.gpioLine("oe")
    let segmentOrder = segmentOrder(reader: &reader)
    let firstRegister: ChainOrder? = reader.choice("first-register")
    let invert = reader.boolean("invert")
    guard let data, let clock, let latch else { return nil }
    return Self(
      data: data, clock: clock, latch: latch, outputEnable: outputEnable,
      segmentOrder: segmentOrder ?? SegmentName.allCases,
      firstRegister: firstRegister ?? .rightmostFirst,
      invert: invert ?? false)
  }

  /// `segments`: eight segment names, each once, or a preset's name.
  private static func segmentOrder(reader: inout SectionReader) -> [SegmentName]? {
    guard let value = reader.entry("segments")?.value else { return nil }
    if let preset = segmentOrderPresets.first(where: { $0.name == value.lowercased() }) {
      return preset.order
    }
    let words = value.words()
    let outputCount = SegmentName.allCases.count
    guard words.count == outputCount else {
      let presets = Listing.joined(segmentOrderPresets.map(\.name))
      reader.report(
        "expected the segment on each output QA to QH: \(outputCount) of "
          + "\(SegmentName.allCases.map(\.rawValue).joined(separator: " ")), each once, "
          + "or \(presets), found \(Listing.found(value))", key: "segments")
      return nil
    }
    var order: [SegmentName] = []
    for word in words {
      guard let segment = SegmentName(rawValue: word.lowercased()) else {
        reader.report(
          "unknown segment '\(word)'; expected "
            + Listing.joined(SegmentName.allCases.map(\.rawValue)), key: "segments")
        return nil
      }
      guard !order.contains(segment) else {
        reader.report("expected each segment once, found '\(word)' twice", key: "segments")
        return nil
      }
      order.append(segment)
    }
    return order
  }
}
