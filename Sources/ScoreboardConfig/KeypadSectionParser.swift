import ScoreboardCore

/// Reads a `[keypad NAME]` section: its driver, its keymap, the driver's keys.
struct KeypadSectionParser {
  /// The keys of every keypad, whatever its driver.
  static let commonKeys = ["driver", "keymap"]

  /// The keymaps read without error, by name.
  var keymaps: [String: Keymap]
  /// The names of every `[keymap NAME]` section, including those with errors.
  var keymapNames: [String]

  /// The keypad, or nil when something in the section is wrong.
  func parse(name: String, reader: inout SectionReader) -> KeypadConfiguration? {
    reader.require("driver", "keymap")
    var keymap: Keymap?
    if let keymapName = reader.text("keymap", expected: "the name of a [keymap NAME] section") {
      keymap = keymaps[keymapName]
      if !keymapNames.contains(keymapName) {
        reader.report(
          NameSuggestion.unknownNameMessage(kind: .keymap, name: keymapName, known: keymapNames),
          key: "keymap")
      }
    }
    let driver = reader.driver(among: KeypadDriver.parsers, commonKeys: Self.commonKeys)
    guard !reader.hasErrors, let keymap, let driver else { return nil }
    return KeypadConfiguration(
      name: name, line: reader.section.line, keymap: keymap, driver: driver)
  }
}
