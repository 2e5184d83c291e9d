/// A keypad's input ended: the writer of its pipe closed it, or its device hung up.
public struct EndOfInput: Error, Hashable, Sendable, CustomStringConvertible {
  /// The name of the keypad.
  public var keypad: String

  /// The error for the keypad named `keypad`.
  public init(keypad: String) {
    self.keypad = keypad
  }

  /// `end of input` (the daemon names the keypad).
  public var description: String {
    "end of input"
  }
}
