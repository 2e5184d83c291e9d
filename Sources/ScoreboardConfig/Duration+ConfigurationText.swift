extension Duration {
  /// The units a duration in the configuration may carry, and their length in microseconds.
  static let configurationUnits: [(name: String, microseconds: Int)] = [
    ("us", 1), ("ms", 1000), ("s", 1_000_000), ("min", 60_000_000),
  ]

  /// The duration as the configuration writes it, in the largest unit that divides it
  /// exactly: `100us`, `500ms`, `15s`, `60min`; `0` for zero.
  var configurationText: String {
    let (seconds, attoseconds) = components
    let microseconds = Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
    guard microseconds != 0 else { return "0" }
    let unit =
      Self.configurationUnits.last { microseconds % $0.microseconds == 0 }
      ?? Self.configurationUnits[0]
    return "\(microseconds / unit.microseconds)\(unit.name)"
  }
}
