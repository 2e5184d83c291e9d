/// The kind of device a display is (`driver =`), with the options of that kind.
public enum DisplayDriver: Hashable, Sendable {
  /// Draws the digits in a terminal (`driver = terminal`).
  case terminal(TerminalDisplayOptions)
}
