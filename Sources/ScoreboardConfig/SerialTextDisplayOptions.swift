import ScoreboardCore
import ScoreboardSettings

/// The options of a display or controller that takes a line of text over a serial port
/// (`driver = serial-text`).
public struct SerialTextDisplayOptions: Hashable, Sendable {
  /// The serial port (`port`).
  public var port: String
  /// The serial line (`baud` and the other line keys).
  public var line: SerialSettings
  /// The text sent for each frame (`template`); it names only fields on this display.
  public var template: TextTemplate

  /// Creates serial text display options.
  public init(port: String, line: SerialSettings = SerialSettings(), template: TextTemplate) {
    self.port = port
    self.line = line
    self.template = template
  }
}
