/// The options of a keypad read from a terminal.
public struct TerminalKeypadOptions: Hashable, Sendable {
  /// The terminal device to read (`device`); nil reads standard input.
  public var device: String?

  /// Creates terminal keypad options.
  public init(device: String? = nil) {
    self.device = device
  }
}
