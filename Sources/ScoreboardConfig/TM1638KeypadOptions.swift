import ScoreboardCore

/// How the buttons S1-S8 of a TM1638 board are read as a keypad: the keys of its
/// `[display NAME]` section that make the board a keypad named like the display
/// (`driver = tm1638` among the keypads).
public struct TM1638KeypadOptions: Hashable, Sendable {
  /// The keys S1-S8 send when `buttons` is absent: `BTN_0` to `BTN_7`.
  public static let defaultButtons = (0..<8).compactMap { Key("BTN_\($0)") }

  /// The name of the `[keymap NAME]` section that says what the buttons do (`keymap`).
  public var keymap: String
  /// The kernel key name each of S1-S8 sends (`buttons`).
  public var buttons: [Key]
  /// How often the buttons are read (`scan-interval`), 5ms to 200ms: the chip has no
  /// interrupt line, so each read is a wakeup, idle or not.
  public var scanInterval: Duration
  /// How long the reads must agree on a button's new state before it counts
  /// (`debounce`), 0 to 1s.
  public var debounce: Duration
  /// How long a button is held for a long press (`long-press`), 100ms to 10s.
  public var longPress: Duration

  /// Creates the keypad options of a board whose buttons `keymap` binds.
  public init(
    keymap: String, buttons: [Key] = defaultButtons, scanInterval: Duration = .milliseconds(20),
    debounce: Duration = .milliseconds(20), longPress: Duration = .seconds(1)
  ) {
    self.keymap = keymap
    self.buttons = buttons
    self.scanInterval = scanInterval
    self.debounce = debounce
    self.longPress = longPress
  }
}
