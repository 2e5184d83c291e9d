@preconcurrency import Glibc
import ScoreboardSettings

extension SerialSettings {
  /// The termios `Bnnn` constant of each of `supportedBaudRates`.
  static let speeds: [Int: speed_t] = [
    1200: speed_t(B1200), 1800: speed_t(B1800), 2400: speed_t(B2400), 4800: speed_t(B4800),
    9600: speed_t(B9600), 19_200: speed_t(B19200), 38_400: speed_t(B38400),
    57_600: speed_t(B57600), 115_200: speed_t(B115200), 230_400: speed_t(B230400),
    460_800: speed_t(B460800), 500_000: speed_t(B500000), 576_000: speed_t(B576000),
    921_600: speed_t(B921600), 1_000_000: speed_t(B1000000),
  ]

  /// Checks that Linux can set every value and returns the termios speed constant of
  /// the baud rate.
  ///
  /// - Throws: `SerialSettingsError` for the first value that cannot be set.
  func checkedSpeed() throws(SerialSettingsError) -> speed_t {
    guard let speed = Self.speeds[baudRate] else {
      throw .unsupportedBaudRate(baudRate)
    }
    guard Self.supportedDataBits.contains(dataBits) else {
      throw .unsupportedDataBits(dataBits)
    }
    guard Self.supportedStopBits.contains(stopBits) else {
      throw .unsupportedStopBits(stopBits)
    }
    return speed
  }
}
