extension SectionReader {
  /// `reinit-interval`: how often a display is set up again, or sent again all it shows,
  /// although nothing failed, for a device that lost power by itself and came back
  /// blank. A minute when the key is absent; nil for `0` (never).
  mutating func reinitInterval() -> Duration? {
    guard
      let interval = duration(
        "reinit-interval", in: .seconds(1)...(.seconds(3600)), zeroMeansNever: true)
    else { return .seconds(60) }
    return interval == .zero ? nil : interval
  }
}
