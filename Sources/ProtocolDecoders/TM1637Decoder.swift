/// A TM1637 LED driver as its datasheet describes it, written from the hardware fact
/// sheet and not from the encoder: it takes the level changes a logic analyser sees on
/// CLK (line 0) and DIO (line 1) and keeps what the chip would hold.
///
/// DIO is sampled on each CLK rising edge, bits LSB first; DIO falling while CLK is high
/// is START, rising while CLK is high is STOP; the 9th clock of each byte is the
/// acknowledgement slot. At STOP the transaction's bytes are carried out by command
/// class (bits 7-6): `01` data command (`0x40` auto-increment, `0x44` fixed address),
/// `11` address `0xC0`-`0xC5` followed by data bytes, `10` display control (`0x80` off,
/// `0x88 | b` on with brightness b 0-7).
///
/// Since every DIO change while CLK is high is a START or a STOP, a DIO change that breaks
/// the protocol shows as one where none may be: a START inside a transaction, a STOP
/// outside one or in the middle of a byte (after more clocks than the one STOP begins
/// with: CLK rises, then DIO). These, and commands the chip does not take,
/// are reported in `violations`.
public struct TM1637Decoder: LineDecoder {
  /// The chip's grids.
  public static let gridCount = 6

  /// The 6 grid registers, canonical bit order (bit 0 = A ... bit 7 = DP or colon); 0 at
  /// power-up.
  public var grids: [UInt8] { chip.registers }
  /// The display is switched on (off at power-up).
  public var isDisplayOn: Bool { chip.isDisplayOn }
  /// The brightness 0-7 of the last display control command.
  public var brightness: Int { chip.brightness }
  /// The bytes of every complete transaction (START to STOP), in order.
  public private(set) var transactions: [[UInt8]] = []
  /// What broke the protocol, in order.
  public private(set) var violations: [String] = []

  private var clock: Bool
  private var data: Bool
  /// The bytes of the open transaction; nil between STOP and START.
  private var bytes: [UInt8]?
  /// The bits of the byte being received, LSB first.
  private var byte: UInt8 = 0
  /// Clocks in the current byte: 0-7 data bits, 8 the acknowledgement slot.
  private var clocks = 0
  /// The registers and display control the transactions wrote.
  private var chip = TitanMicroRegisters(count: gridCount, registerName: "grid")

  /// A chip on lines at the given levels when the capture starts (both idle high).
  public init(clock: Bool = true, data: Bool = true) {
    self.clock = clock
    self.data = data
  }

  /// Takes one level change: line 0 is CLK, line 1 is DIO.
  public mutating func receive(line: Int, high: Bool) {
    switch line {
    case 0:
      guard high != clock else { return }
      clock = high
      if high {
        clockRose()
      }
    case 1:
      guard high != data else { return }
      data = high
      if clock {
        high ? stop() : start()
      }
    default:
      violations.append("a change on line \(line), which a TM1637 does not have")
    }
  }

  private mutating func clockRose() {
    guard bytes != nil else {
      violations.append("a clock outside a transaction")
      return
    }
    if clocks < 8 {
      if data {
        byte |= 1 << clocks
      }
      clocks += 1
    } else {
      bytes?.append(byte)
      byte = 0
      clocks = 0
    }
  }

  private mutating func start() {
    if bytes != nil {
      violations.append("START inside a transaction (DIO fell while CLK was high)")
    }
    bytes = []
    byte = 0
    clocks = 0
  }

  private mutating func stop() {
    guard let bytes else {
      violations.append("STOP outside a transaction (DIO rose while CLK was high)")
      return
    }
    self.bytes = nil
    // The clock rise that STOP begins with is the only one allowed after a byte.
    if clocks > 1 {
      violations.append("STOP after \(clocks) clocks of a byte (DIO rose while CLK was high)")
    }
    transactions.append(bytes)
    execute(bytes)
  }

  private mutating func execute(_ bytes: [UInt8]) {
    if let violation = chip.execute(bytes) {
      violations.append(violation)
    }
  }

}
