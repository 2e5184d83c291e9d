/// How a serial port is set up (termios): speed, character format and flow control.
///
/// Every serial display driver has these keys; the defaults are 9600 baud, 8N1, no flow
/// control.
public struct SerialLineOptions: Hashable, Sendable {
  /// Which parity bit each character carries (`parity`).
  public enum Parity: String, Hashable, Sendable, CaseIterable {
    /// No parity bit.
    case none
    /// A bit that makes the number of ones even.
    case even
    /// A bit that makes the number of ones odd.
    case odd
  }

  /// How the receiver holds back the sender (`flow-control`).
  public enum FlowControl: String, Hashable, Sendable, CaseIterable {
    /// The sender never waits.
    case none
    /// Hardware handshake on the RTS and CTS lines.
    case rtsCts = "rtscts"
  }

  /// The speeds Linux termios can set, in bits per second: the values `baud` may take.
  public static let supportedBaudRates = [
    1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 500_000,
    576_000, 921_600, 1_000_000,
  ]

  /// The speed in bits per second (`baud`), one of `supportedBaudRates`.
  public var baudRate: Int
  /// Bits per character, 5 to 8 (`data-bits`).
  public var dataBits: Int
  /// The parity bit (`parity`).
  public var parity: Parity
  /// Stop bits per character, 1 or 2 (`stop-bits`).
  public var stopBits: Int
  /// The flow control (`flow-control`).
  public var flowControl: FlowControl

  /// Creates serial line options; the defaults are 9600 baud, 8N1, no flow control.
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
}
