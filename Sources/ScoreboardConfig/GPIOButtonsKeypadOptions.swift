import ScoreboardCore
import ScoreboardSettings

/// The options of push buttons, each on its own GPIO line (`driver = gpio-buttons`).
public struct GPIOButtonsKeypadOptions: Hashable, Sendable {
  /// A button: the key it sends and its line (`BTN_0 = GPIO17`).
  public struct Button: Hashable, Sendable {
    /// The key, a kernel key name without `shift` or `long`.
    public var key: Key
    /// The line the button pulls to its active level.
    public var line: GPIOLine

    /// Creates a button.
    public init(key: Key, line: GPIOLine) {
      self.key = key
      self.line = line
    }
  }

  /// The buttons, in file order.
  public var buttons: [Button]
  /// The pull resistor on every line (`bias`).
  public var bias: GPIOLineSettings.Bias
  /// Whether a pressed button reads low (`active-low`): a button to ground.
  public var activeLow: Bool
  /// How long a line must stay at a new level before it counts (`debounce`), 0 to 1s.
  public var debounce: Duration
  /// How long a button is held for a long press (`long-press`), 100ms to 10s: the key
  /// is then sent as `long+KEY`, which keymaps bind apart from the plain press.
  public var longPress: Duration

  /// Creates GPIO button options; the defaults suit buttons to ground with the Pi's
  /// pull-ups.
  public init(
    buttons: [Button], bias: GPIOLineSettings.Bias = .pullUp, activeLow: Bool = true,
    debounce: Duration = .milliseconds(20), longPress: Duration = .seconds(1)
  ) {
    self.buttons = buttons
    self.bias = bias
    self.activeLow = activeLow
    self.debounce = debounce
    self.longPress = longPress
  }
}
