extension SectionReader {
  /// A display's `digits`, for a driver whose options depend on it; nil when it is absent
  /// or wrong.
  ///
  /// The display section reads `digits`, and reports a wrong value, with the range of
  /// every display. A driver that drives fewer cells gives its `limit`, with the reason,
  /// and a count above it is reported here.
  mutating func displayDigits(limit: (maximum: Int, reason: String)? = nil) -> Int? {
    guard let entry = entry("digits"), let count = Int(entry.value),
      (1...DisplaySectionParser.maximumCellCount).contains(count)
    else { return nil }
    if let limit, count > limit.maximum {
      report(
        "expected a whole number from 1 to \(limit.maximum) (\(limit.reason)), "
          + "found \"\(entry.value)\"", at: entry)
      return nil
    }
    return count
  }
}
