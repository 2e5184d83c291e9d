import ScoreboardSettings

/// The options of a display made of SparkFun Serial 7-Segment (S7S) modules, each on its
/// own serial port (`driver = s7s`).
public struct S7SDisplayOptions: Hashable, Sendable {
  /// The digits of one module.
  public static let digitsPerModule = 4

  /// The serial port of each module, left to right (`port`); the display has
  /// `digitsPerModule` digits per port.
  public var ports: [String]
  /// The serial line of every module (`baud` and the other line keys).
  public var line: SerialSettings

  /// Creates S7S display options.
  public init(ports: [String], line: SerialSettings = SerialSettings()) {
    self.ports = ports
    self.line = line
  }
}
