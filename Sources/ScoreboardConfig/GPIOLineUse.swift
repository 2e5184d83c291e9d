import ScoreboardSettings

/// A GPIO line a section's key names, for the check that each line is used once.
struct GPIOLineUse {
  /// The line, normalised.
  var line: GPIOLine
  /// The section's title (`display main`).
  var section: String
  /// The key as written (`clk`, `BTN_0`).
  var key: String
  /// The line of the file the key is on.
  var fileLine: Int
}
