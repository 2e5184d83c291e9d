/// A change on an input line, timestamped by the kernel.
public struct GPIOEdgeEvent: Hashable, Sendable {
  /// The index of the line in its request.
  public var line: Int
  /// The logical value after the edge (a rising edge of an active-low line is `false`).
  public var value: Bool
  /// The kernel's timestamp, nanoseconds on the monotonic clock.
  public var timestamp: Int64

  /// An edge of `line` to `value` at `timestamp`.
  public init(line: Int, value: Bool, timestamp: Int64) {
    self.line = line
    self.value = value
    self.timestamp = timestamp
  }
}
