/// A TM1638 LED driver with key scan on an "LED&KEY" board, as its datasheet describes
/// it, written from the datasheet and not from the encoder: it takes the level changes a
/// logic analyser sees on STB (line 0), CLK (line 1) and DIO (line 2), keeps what the
/// chip would hold, and plays the chip's part of a key read.
///
/// STB low opens a transaction and STB high ends it; CLK is ignored while STB is high.
/// While the host writes, DIO is taken on each CLK rising edge, LSB first; the first byte
/// of a transaction is its command, by class (bits 7-6): `01` data command (bits 1-0:
/// `00` write the display, `10` read the keys; bit 2: fixed address instead of
/// auto-increment), `11` address `0xC0`-`0xCF` followed by the data bytes, `10` display
/// control (bit 3 on, bits 2-0 brightness). When STB rises the transaction is carried
/// out.
///
/// After a read command (`0x42`) the chip answers: on each CLK falling edge it puts the
/// next bit of its 4 key bytes on DIO, LSB first (open drain: a 0 pulls DIO low, a 1
/// leaves it to the pull-up), and the host takes it on the rising edge; `dataLevel` is
/// what the chip leaves DIO at. Byte i holds K3, K2, K1 of KS(2i+1) in bits 0-2 and of
/// KS(2i+2) in bits 4-6; the board's buttons S1-S8 are on K3: S1 is KS1, S5 is KS2 (bit 4
/// of byte 0), S2 is KS3 (bit 0 of byte 1) and so on.
///
/// What the chip does not take is reported in `violations`: a transaction ended in the
/// middle of a byte, a command it does not know, a write past its last register, more
/// than one byte at a fixed address, the host pulling DIO low while the chip answers, an
/// answer not read to its 32nd bit.
public struct TM1638Decoder: LineDecoder {
  /// The chip's display registers.
  public static let registerCount = 16
  /// The bits of a key read's answer.
  public static let answerBits = 32

  /// The 16 display registers; 0 at power-up.
  public var registers: [UInt8] { chip.registers }
  /// The display is switched on (off at power-up).
  public var isDisplayOn: Bool { chip.isDisplayOn }
  /// The brightness 0-7 of the last display control command.
  public var brightness: Int { chip.brightness }
  /// The bytes the host sent in every complete transaction (STB low to STB high), in
  /// order; a key read shows as its command alone.
  public private(set) var transactions: [[UInt8]] = []
  /// How many key reads were answered to their last bit.
  public private(set) var keyReads = 0
  /// What broke the protocol, in order.
  public private(set) var violations: [String] = []
  /// The buttons held down, S1 to S8 as 1 to 8: what the next key read answers.
  public var pressed: Set<Int> = []

  private var strobe: Bool
  private var clock: Bool
  private var data: Bool
  /// The bytes of the open transaction; nil while STB is high.
  private var bytes: [UInt8]?
  /// The bits of the byte being received, LSB first, and how many came.
  private var byte: UInt8 = 0
  private var bits = 0
  /// The answer being sent and how many of its bits the host clocked; nil unless the
  /// open transaction is a key read.
  private var answer: (bits: [Bool], sent: Int, read: Int)?
  /// The registers and display control the transactions wrote.
  private var chip = TitanMicroRegisters(count: registerCount, registerName: "register")

  /// A chip on lines at the given levels when the capture starts (all idle high).
  public init(strobe: Bool = true, clock: Bool = true, data: Bool = true) {
    self.strobe = strobe
    self.clock = clock
    self.data = data
  }

  /// The level the chip leaves DIO at: low while it sends a 0 bit of its answer, else
  /// released (high by the pull-up).
  public var dataLevel: Bool {
    guard let answer, answer.sent > 0 else { return true }
    return answer.bits[answer.sent - 1]
  }

  /// The segments of each digit of the board: registers 0, 2 ... 14 (bit 0 = A ... bit 7
  /// = DP).
  public var digits: [UInt8] {
    stride(from: 0, to: Self.registerCount, by: 2).map { registers[$0] }
  }

  /// Whether each LED of the board is lit: bit 0 of registers 1, 3 ... 15.
  public var lights: [Bool] {
    stride(from: 1, to: Self.registerCount, by: 2).map { registers[$0] & 1 != 0 }
  }

  /// The 4 bytes a key read answers for the buttons `pressed`.
  public var keyBytes: [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 4)
    for button in pressed where (1...8).contains(button) {
      // K3 of KS1-KS8; S1-S4 are KS1, KS3, KS5, KS7 and S5-S8 are KS2, KS4, KS6, KS8.
      let segment = button <= 4 ? 2 * (button - 1) : 2 * (button - 5) + 1
      bytes[segment / 2] |= segment % 2 == 0 ? 0x01 : 0x10
    }
    return bytes
  }

  /// Takes one level change: line 0 is STB, line 1 is CLK, line 2 is DIO.
  public mutating func receive(line: Int, high: Bool) {
    switch line {
    case 0:
      guard high != strobe else { return }
      strobe = high
      high ? end() : begin()
    case 1:
      guard high != clock else { return }
      clock = high
      guard bytes != nil else { return }
      high ? clockRose() : clockFell()
    case 2:
      guard high != data else { return }
      data = high
      if !high, let answer, answer.sent > 0 {
        violations.append("the host pulled DIO low while the chip answered a key read")
      }
    default:
      violations.append("a change on line \(line), which a TM1638 does not have")
    }
  }

  private mutating func begin() {
    bytes = []
    byte = 0
    bits = 0
    answer = nil
  }

  private mutating func clockRose() {
    if var answer {
      answer.read += 1
      self.answer = answer
      return
    }
    if data {
      byte |= 1 << bits
    }
    bits += 1
    guard bits == 8 else { return }
    bytes?.append(byte)
    if bytes?.count == 1, byte == 0x42 {
      let key = keyBytes
      answer = ((0..<Self.answerBits).map { key[$0 / 8] >> ($0 % 8) & 1 == 1 }, 0, 0)
    }
    byte = 0
    bits = 0
  }

  private mutating func clockFell() {
    guard var answer else { return }
    if answer.sent < Self.answerBits {
      answer.sent += 1
    } else {
      violations.append("a clock past the 32 bits of a key read")
    }
    self.answer = answer
  }

  private mutating func end() {
    guard let bytes else { return }
    self.bytes = nil
    if let answer {
      self.answer = nil
      transactions.append(bytes)
      if answer.read >= Self.answerBits {
        keyReads += 1
      } else {
        violations.append("a key read ended after \(answer.read) of its 32 bits")
      }
      return
    }
    transactions.append(bytes)
    guard bits == 0 else {
      violations.append("STB rose after \(bits) bits of a byte")
      return
    }
    execute(bytes)
  }

  private mutating func execute(_ bytes: [UInt8]) {
    if let violation = chip.execute(bytes) {
      violations.append(violation)
    }
  }

}
