/// The kind of device a keypad is (`driver =`), with the options of that kind.
public enum KeypadDriver: Hashable, Sendable {
  /// Reads keys typed in a terminal (`driver = terminal`).
  case terminal(TerminalKeypadOptions)
}
