@preconcurrency import Glibc

/// Line settings of a serial port: speed and character framing, such as 9600 baud 8N1.
///
/// Any values can be stored; `SerialPort` checks them when it opens a port and throws
/// `SerialSettingsError` for one that Linux cannot set.
public struct SerialSettings: Hashable, Sendable {
  /// Whether a parity bit follows the data bits, and which.
  public enum Parity: String, Hashable, Sendable, CaseIterable {
    /// No parity bit.
    case none
    /// A parity bit that makes the number of one bits even.
    case even
    /// A parity bit that makes the number of one bits odd.
    case odd
  }

  /// How the receiver stops the sender when it cannot keep up.
  public enum FlowControl: String, Hashable, Sendable, CaseIterable {
    /// No flow control: bytes go out as fast as the baud rate allows.
    case none
    /// Hardware flow control on the RTS and CTS lines (`CRTSCTS`).
    case rtsCts
  }

  /// Bits per second; one of `supportedBaudRates`.
  public var baudRate: Int
  /// Data bits per character, 5 to 8.
  public var dataBits: Int
  /// The parity bit.
  public var parity: Parity
  /// Stop bits per character, 1 or 2.
  public var stopBits: Int
  /// The flow control.
  public var flowControl: FlowControl

  /// Settings with the given values; the defaults make 9600 baud 8N1 without flow
  /// control.
  public init(
    baudRate: Int = 9600, dataBits: Int = 8, parity: Parity = .none, stopBits: Int = 1,
    flowControl: FlowControl = .none
  ) {
    self.baudRate = baudRate
    self.dataBits = dataBits
    self.parity = parity
    self.stopBits = stopBits
    self.flowControl = flowControl
  }

  /// The baud rates with a termios `Bnnn` constant, and those constants.
  private static let speeds: [(baudRate: Int, speed: speed_t)] = [
    (1200, speed_t(B1200)), (1800, speed_t(B1800)), (2400, speed_t(B2400)),
    (4800, speed_t(B4800)), (9600, speed_t(B9600)), (19_200, speed_t(B19200)),
    (38_400, speed_t(B38400)), (57_600, speed_t(B57600)), (115_200, speed_t(B115200)),
    (230_400, speed_t(B230400)), (460_800, speed_t(B460800)), (500_000, speed_t(B500000)),
    (576_000, speed_t(B576000)), (921_600, speed_t(B921600)),
    (1_000_000, speed_t(B1000000)),
  ]

  /// The rates Linux termios can set with a `Bnnn` constant, slowest first: 1200 1800
  /// 2400 4800 9600 19200 38400 57600 115200 230400 460800 500000 576000 921600 1000000.
  public static let supportedBaudRates: [Int] = speeds.map(\.baudRate)

  /// The data bits a character can have.
  static let supportedDataBits = 5...8

  /// The stop bits a character can have.
  static let supportedStopBits = 1...2

  /// Bits one character takes on the wire: start + data + parity + stop (10 for 8N1).
  public var bitsPerCharacter: Int {
    1 + dataBits + (parity == .none ? 0 : 1) + stopBits
  }

  /// The time `byteCount` bytes take on the wire, in nanoseconds, rounded up.
  ///
  /// - Precondition: `byteCount` is not negative and `baudRate` is positive.
  public func wireTime(forBytes byteCount: Int) -> Int64 {
    precondition(byteCount >= 0, "a negative byte count")
    precondition(baudRate > 0, "wire time at a baud rate of \(baudRate)")
    // Whole seconds first, so that the product cannot overflow for any real byte count.
    let bits = Int64(byteCount) * Int64(bitsPerCharacter)
    let rate = Int64(baudRate)
    let nanosecondsPerSecond: Int64 = 1_000_000_000
    let remainder = bits % rate * nanosecondsPerSecond
    return bits / rate * nanosecondsPerSecond + (remainder + rate - 1) / rate
  }

  /// Checks that Linux can set every value and returns the termios speed constant of
  /// the baud rate.
  ///
  /// - Throws: `SerialSettingsError` for the first value that cannot be set.
  func checkedSpeed() throws(SerialSettingsError) -> speed_t {
    guard let speed = Self.speeds.first(where: { $0.baudRate == baudRate })?.speed else {
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
