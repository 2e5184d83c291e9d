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
  /// How often the text is sent again although nothing failed (`reinit-interval`), for a
  /// device that lost power and came back blank; nil for never.
  public var reinitializeInterval: Duration?

  /// Creates serial text display options.
  public init(
    port: String, line: SerialSettings = SerialSettings(), template: TextTemplate,
    reinitializeInterval: Duration? = .seconds(60)
  ) {
    self.port = port
    self.line = line
    self.template = template
    self.reinitializeInterval = reinitializeInterval
  }
}
