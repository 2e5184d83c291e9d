import ScoreboardCore

/// A configured keypad: a `[keypad NAME]` section.
public struct KeypadConfiguration: Hashable, Sendable {
  /// The keypad's name, as key events carry it (`numpad`).
  public var name: String
  /// The line of the section header, for messages about the keypad.
  public var line: Int
  /// What the keypad's keys do, from the `[keymap NAME]` section that `keymap` names.
  public var keymap: Keymap
  /// The driver that reads the keypad, with its options.
  public var driver: KeypadDriver

  /// Creates a keypad configuration.
  public init(name: String, line: Int, keymap: Keymap, driver: KeypadDriver) {
    self.name = name
    self.line = line
    self.keymap = keymap
    self.driver = driver
  }
}

extension KeypadConfiguration {
  /// Whether the keypad tells a long press from a short one: gpio-buttons keypads and
  /// TM1638 boards.
  var tellsLongPresses: Bool {
    switch driver {
    case .gpioButtons, .tm1638: true
    case .terminal, .gpioMatrix, .evdev: false
    }
  }
}
