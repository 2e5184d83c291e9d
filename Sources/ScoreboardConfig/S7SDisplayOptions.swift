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
  /// How often every digit and point is sent again although nothing failed
  /// (`reinit-interval`), for a module that lost power and came back blank; nil for
  /// never.
  public var reinitializeInterval: Duration?

  /// Creates S7S display options.
  public init(
    ports: [String], line: SerialSettings = SerialSettings(),
    reinitializeInterval: Duration? = .seconds(60)
  ) {
    self.ports = ports
    self.line = line
    self.reinitializeInterval = reinitializeInterval
  }
}
