import ScoreboardConfig
import Testing

/// A configuration file with problems, and the diagnostics it must produce.
struct MalformedConfiguration: Sendable, CustomTestStringConvertible {
  /// What is wrong, as the test case's name.
  var problem: String
  var text: String
  /// The expected diagnostics, one per line.
  var diagnostics: String

  var testDescription: String { problem }

  /// A valid file of six lines: one display of 4 cells, one field of 2 digits at cell 1.
  static let base = """
    [display main]
    driver = terminal
    digits = 4
    [field home]
    position = 1
    digits = 2

    """

  /// `base` followed by `lines`, which start at line 7.
  static func afterBase(_ problem: String, _ lines: String, _ diagnostics: String) -> Self {
    Self(problem: problem, text: base + lines, diagnostics: diagnostics)
  }

  /// A `[display main]` section of `lines`, which start at line 2, followed by a field of
  /// 2 digits at cell 1.
  static func display(_ problem: String, _ lines: String, _ diagnostics: String) -> Self {
    Self(
      problem: problem,
      text: "[display main]\n" + lines + "[field home]\nposition = 1\ndigits = 2\n",
      diagnostics: diagnostics)
  }

  /// `base` then a keymap and a gpio-buttons keypad using it, whose `lines` start at
  /// line 11.
  static func buttons(_ problem: String, _ lines: String, _ diagnostics: String) -> Self {
    afterBase(
      problem, "[keymap pad]\n[keypad pad]\ndriver = gpio-buttons\nkeymap = pad\n" + lines,
      diagnostics)
  }

  /// `base` then a keymap and a gpio-matrix keypad of 2 rows and 2 columns using it,
  /// whose `lines` start at line 13.
  static func matrix(_ problem: String, _ lines: String, _ diagnostics: String) -> Self {
    afterBase(
      problem,
      "[keymap pad]\n[keypad pad]\ndriver = gpio-matrix\nkeymap = pad\n"
        + "rows = GPIO5 GPIO6\ncolumns = GPIO12 GPIO16\n" + lines, diagnostics)
  }

  /// `base` then a keymap and an evdev keypad using it, whose `lines` start at line 11.
  static func evdev(_ problem: String, _ lines: String, _ diagnostics: String) -> Self {
    afterBase(
      problem, "[keymap pad]\n[keypad pad]\ndriver = evdev\nkeymap = pad\n" + lines, diagnostics)
  }
}
