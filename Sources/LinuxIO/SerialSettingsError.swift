import ScoreboardSettings

/// Serial line settings that cannot be used: Linux cannot set them, or the device's
/// driver did not apply them.
///
/// The description says what is wrong and what would work, such as
/// `baud rate 250000 cannot be set on Linux; supported: 1200, 1800, ...`, or
/// `tcsetattr /dev/ttyUSB0: the driver did not apply baud rate 1000000`.
public enum SerialSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No termios `Bnnn` constant exists for the baud rate.
  case unsupportedBaudRate(Int)
  /// A character cannot have this many data bits.
  case unsupportedDataBits(Int)
  /// A character cannot have this many stop bits.
  case unsupportedStopBits(Int)
  /// The driver of the device at `path` accepted `tcsetattr` but, read back with
  /// `tcgetattr`, kept other values for the `refused` settings (`baud rate 1000000`,
  /// `5 data bits`).
  case refusedByDriver(path: String, refused: [String])

  /// What is wrong, and what is supported.
  public var description: String {
    switch self {
    case .unsupportedBaudRate(let baudRate):
      return "baud rate \(baudRate) cannot be set on Linux; supported: "
        + Self.list(SerialSettings.supportedBaudRates)
    case .unsupportedDataBits(let dataBits):
      return "data bits \(dataBits) cannot be set; supported: "
        + Self.list(SerialSettings.supportedDataBits)
    case .unsupportedStopBits(let stopBits):
      return "stop bits \(stopBits) cannot be set; supported: "
        + Self.list(SerialSettings.supportedStopBits)
    case .refusedByDriver(let path, let refused):
      return "tcsetattr \(path): the driver did not apply " + refused.joined(separator: ", ")
    }
  }

  private static func list(_ values: some Sequence<Int>) -> String {
    values.map(String.init).joined(separator: ", ")
  }
}
