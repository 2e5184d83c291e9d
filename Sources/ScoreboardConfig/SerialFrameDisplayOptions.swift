import ScoreboardSettings

/// The options of a scoreboard controller board that takes framed messages over a serial
/// port, optionally acknowledging each one (`driver = serial-frame`).
public struct SerialFrameDisplayOptions: Hashable, Sendable {
  /// The serial port (`port`).
  public var port: String
  /// The serial line (`baud` and the other line keys).
  public var line: SerialSettings
  /// The board's address, 0 to 254 (`address`).
  public var address: Int
  /// How acknowledgements are awaited (`ack = yes`); nil sends frames without waiting.
  public var acknowledgement: AcknowledgementOptions?
  /// How often the frame is sent again although nothing failed (`reinit-interval`), for
  /// a board that lost power and came back blank; nil for never.
  public var reinitializeInterval: Duration?

  /// Creates serial frame display options.
  public init(
    port: String, line: SerialSettings = SerialSettings(), address: Int = 0,
    acknowledgement: AcknowledgementOptions? = nil, reinitializeInterval: Duration? = .seconds(60)
  ) {
    self.port = port
    self.line = line
    self.address = address
    self.acknowledgement = acknowledgement
    self.reinitializeInterval = reinitializeInterval
  }
}
