/// Why a line is not a request of the control protocol, or not the answer a client
/// expected.
public struct ControlSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong, naming the command or word concerned.
  public var description: String

  /// An error saying `description`.
  public init(description: String) {
    self.description = description
  }
}
