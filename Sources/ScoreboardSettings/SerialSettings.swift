/// Line settings of a serial port: speed and character framing, such as 9600 baud 8N1,
/// as a display section configures them and the serial port applies them.
///
/// Any values can be stored; the configuration accepts only the values below, and the
/// serial port checks them again when it opens a port.
public struct SerialSettings: Hashable, Sendable {
  /// Whether a parity bit follows the data bits, and which (`parity`).
  public enum Parity: String, Hashable, Sendable, CaseIterable {
    /// No parity bit.
    case none
    /// A parity bit that makes the number of one bits even.
    case even
    /// A parity bit that makes the number of one bits odd.
    case odd
  }

  /// How the receiver stops the sender when it cannot keep up (`flow-control`).
  public enum FlowControl: String, Hashable, Sendable, CaseIterable {
    /// No flow control: bytes go out as fast as the baud rate allows.
    case none
    /// Hardware flow control on the RTS and CTS lines (`CRTSCTS`).
    case rtsCts = "rtscts"
  }

  /// The rates Linux termios can set with a `Bnnn` constant, slowest first: the values
  /// `baud` may take.
  public static let supportedBaudRates = [
    1200, 1800, 2400, 4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 500_000,
    576_000, 921_600, 1_000_000,
  ]

  /// The data bits a character can have.
  public static let supportedDataBits = 5...8

  /// The stop bits a character can have.
  public static let supportedStopBits = 1...2

  /// Bits per second (`baud`); one of `supportedBaudRates`.
  public var baudRate: Int
  /// Data bits per character, 5 to 8 (`data-bits`).
  public var dataBits: Int
  /// The parity bit (`parity`).
  public var parity: Parity
  /// Stop bits per character, 1 or 2 (`stop-bits`).
  public var stopBits: Int
  /// The flow control (`flow-control`).
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
}
