/// A decoder of a protocol bit-banged on lines, fed what a logic analyser sees: the
/// level changes, in order.
public protocol LineDecoder {
  /// Takes one level change of line `line`.
  mutating func receive(line: Int, high: Bool)
}

extension LineDecoder {
  /// Takes the level changes, in order.
  public mutating func receive(_ changes: [(line: Int, high: Bool)]) {
    for change in changes {
      receive(line: change.line, high: change.high)
    }
  }
}
