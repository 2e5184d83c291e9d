/// A keypad's input ended: the writer of its pipe closed it, or its device hung up; or
/// there was never anything to read, as from a service's standard input, /dev/null.
public struct EndOfInput: Error, Hashable, Sendable, CustomStringConvertible {
  /// The name of the keypad.
  public var keypad: String
  /// Whether the keypad never had anything to read (standard input is /dev/null): the
  /// daemon says so once, as information, not as a fault.
  public var hadNothingToRead: Bool

  /// The error for the keypad named `keypad`.
  public init(keypad: String, hadNothingToRead: Bool = false) {
    self.keypad = keypad
    self.hadNothingToRead = hadNothingToRead
  }

  /// `end of input`, or why there is nothing to read (the daemon names the keypad).
  public var description: String {
    hadNothingToRead
      ? "standard input is /dev/null, as for a service, which has no terminal"
      : "end of input"
  }
}
