/// Where a GPIO line is: by its name on any chip (`GPIO17`, as the Raspberry Pi's
/// device tree names the header pins), or by chip and offset.
public enum GPIOLineAddress: Hashable, Sendable, CustomStringConvertible {
  /// A line name, looked up on every chip.
  case name(String)
  /// A chip (a path such as `/dev/gpiochip0`) and the line's offset on it.
  case offset(chip: String, offset: Int)

  public var description: String {
    switch self {
    case .name(let name): name
    case .offset(let chip, let offset): "\(chip):\(offset)"
    }
  }
}

/// How one line of a request is configured.
public struct GPIOLineSettings: Hashable, Sendable {
  public enum Direction: Hashable, Sendable {
    case input
    case output
  }

  public enum Bias: Hashable, Sendable {
    /// Leave the line's bias as it is.
    case asIs
    case pullUp
    case pullDown
    case disabled
  }

  public enum Drive: Hashable, Sendable {
    case pushPull
    /// Drives low only; high is released to a pull-up (TM1637 DIO, matrix rows).
    case openDrain
    case openSource
  }

  public enum Edges: Hashable, Sendable {
    case none
    case rising
    case falling
    case both
  }

  public var direction: Direction
  /// The line's logical value is the inverse of its physical level.
  public var activeLow: Bool
  public var bias: Bias
  public var drive: Drive
  /// Input lines: which edges produce events.
  public var edges: Edges
  /// Input lines: the kernel's debounce period, in nanoseconds (libgpiod v2 only;
  /// nil for none).
  public var debounce: Int64?
  /// Output lines: the logical value when requested.
  public var initialValue: Bool

  public init(
    direction: Direction, activeLow: Bool = false, bias: Bias = .asIs, drive: Drive = .pushPull,
    edges: Edges = .none, debounce: Int64? = nil, initialValue: Bool = false
  ) {
    self.direction = direction
    self.activeLow = activeLow
    self.bias = bias
    self.drive = drive
    self.edges = edges
    self.debounce = debounce
    self.initialValue = initialValue
  }

  /// An output line.
  public static func output(
    initialValue: Bool = false, drive: Drive = .pushPull, activeLow: Bool = false
  )
    -> GPIOLineSettings
  {
    GPIOLineSettings(
      direction: .output, activeLow: activeLow, drive: drive, initialValue: initialValue)
  }

  /// An input line that reports edges.
  public static func input(
    bias: Bias = .asIs, activeLow: Bool = false, edges: Edges = .both, debounce: Int64? = nil
  ) -> GPIOLineSettings {
    GPIOLineSettings(
      direction: .input, activeLow: activeLow, bias: bias, edges: edges, debounce: debounce)
  }
}

/// A change on an input line, timestamped by the kernel.
public struct GPIOEdgeEvent: Hashable, Sendable {
  /// The index of the line in its request.
  public var line: Int
  /// The logical value after the edge (a rising edge of an active-low line is `false`).
  public var value: Bool
  /// The kernel's timestamp, nanoseconds on the monotonic clock.
  public var timestamp: Int64

  public init(line: Int, value: Bool, timestamp: Int64) {
    self.line = line
    self.value = value
    self.timestamp = timestamp
  }
}
