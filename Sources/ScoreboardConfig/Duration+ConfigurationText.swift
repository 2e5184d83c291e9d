extension Duration {
  /// The units a duration in the configuration may carry, and their length in milliseconds.
  static let configurationUnits: [(name: String, milliseconds: Int)] = [
    ("ms", 1), ("s", 1000), ("min", 60_000),
  ]

  /// The duration as the configuration writes it, in the largest unit that divides it
  /// exactly: `500ms`, `15s`, `60min`.
  var configurationText: String {
    let (seconds, attoseconds) = components
    let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    let unit =
      Self.configurationUnits.last { milliseconds % $0.milliseconds == 0 }
      ?? Self.configurationUnits[0]
    return "\(milliseconds / unit.milliseconds)\(unit.name)"
  }
}
