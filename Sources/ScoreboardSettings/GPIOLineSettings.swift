/// How one GPIO line of a request is configured.
public struct GPIOLineSettings: Hashable, Sendable {
  /// Whether the line is read or driven.
  public enum Direction: Hashable, Sendable {
    /// Read by the program.
    case input
    /// Driven by the program.
    case output
  }

  /// The pull resistor inside the chip on an input (`bias`).
  public enum Bias: String, Hashable, Sendable, CaseIterable {
    /// Pulled up: a button to ground reads low when pressed.
    case pullUp = "pull-up"
    /// Pulled down: a button to 3.3 V reads high when pressed.
    case pullDown = "pull-down"
    /// No pull: the wiring has its own resistors.
    case disabled
    /// Left as the kernel or the device tree set it.
    case asIs = "as-is"
  }

  /// How an output drives the line.
  public enum Drive: Hashable, Sendable {
    /// Drives both levels.
    case pushPull
    /// Drives low only; high is released to a pull-up (TM1637 DIO, matrix rows).
    case openDrain
    /// Drives high only; low is released to a pull-down.
    case openSource
  }

  /// Which changes of an input produce edge events.
  public enum Edges: Hashable, Sendable {
    /// None: the input is only read.
    case none
    /// Low to high.
    case rising
    /// High to low.
    case falling
    /// Both.
    case both
  }

  /// Whether the line is read or driven.
  public var direction: Direction
  /// The line's logical value is the inverse of its physical level.
  public var activeLow: Bool
  /// Input lines: the pull resistor.
  public var bias: Bias
  /// Output lines: how the line is driven.
  public var drive: Drive
  /// Input lines: which edges produce events.
  public var edges: Edges
  /// Input lines: the kernel's debounce period, in nanoseconds (libgpiod v2 only;
  /// nil for none).
  public var debounce: Int64?
  /// Output lines: the logical value when requested.
  public var initialValue: Bool

  /// Settings with the given values.
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
  ) -> GPIOLineSettings {
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
