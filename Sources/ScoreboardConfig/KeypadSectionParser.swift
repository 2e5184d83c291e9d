import ScoreboardCore

/// Reads a `[keypad NAME]` section: its driver, its keymap, the driver's keys.
struct KeypadSectionParser {
  /// A keypad read without error, with the GPIO lines it uses, for the checks that compare
  /// sections.
  struct Keypad {
    var configuration: KeypadConfiguration
    /// The GPIO lines the keypad uses, with their keys.
    var gpioLines: [GPIOLineUse]
    /// The section's title, for messages.
    var section: String
    /// The entry that chooses an evdev keypad's device (`device` or `name`), for the check
    /// that no two keypads read one device.
    var deviceEntry: IniEntry?
  }

  /// The keys of every keypad, whatever its driver.
  static let commonKeys = ["driver", "keymap"]

  /// The keymaps read without error, by name.
  let keymaps: [String: Keymap]
  /// The names of every `[keymap NAME]` section, including those with errors.
  let keymapNames: [String]
  /// `keymapNames`, to look names up in.
  private let knownKeymapNames: Set<String>

  init(keymaps: [String: Keymap], keymapNames: [String]) {
    self.keymaps = keymaps
    self.keymapNames = keymapNames
    knownKeymapNames = Set(keymapNames)
  }

  /// How a key of the section is written once case is set aside, where case does not
  /// matter: a kernel key name naming a button (`btn_0` is `BTN_0`). Two entries for one
  /// key are a repeat.
  static func canonicalKeyName(_ key: String) -> String {
    KernelKeyName.unprefixedKey(key)?.name ?? key
  }

  /// The keypad, or nil when something in the section is wrong.
  func parse(name: String, reader: inout SectionReader) -> Keypad? {
    reader.require("driver", "keymap")
    var keymap: Keymap?
    if let keymapName = reader.text("keymap", expected: "the name of a [keymap NAME] section") {
      keymap = keymaps[keymapName]
      if !knownKeymapNames.contains(keymapName) {
        reader.report(
          reader.suggestions.unknownNameMessage(
            kind: .keymap, name: keymapName, known: keymapNames),
          key: "keymap")
      }
    }
    let driver = reader.driver(among: KeypadDriver.parsers, commonKeys: Self.commonKeys)
    guard !reader.hasErrors, let keymap, let driver else { return nil }
    return Keypad(
      configuration: KeypadConfiguration(
        name: name, line: reader.section.line, keymap: keymap, driver: driver),
      gpioLines: reader.gpioLineUses, section: reader.section.title,
      deviceEntry: Self.deviceEntry(of: driver, reader: reader))
  }

  /// The entry that chooses the device of an evdev keypad; nil for other drivers.
  private static func deviceEntry(of driver: KeypadDriver, reader: SectionReader) -> IniEntry? {
    guard case .evdev = driver else { return nil }
    return reader.entry("device") ?? reader.entry("name")
  }
}
