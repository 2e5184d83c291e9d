/// A daisy chain of MAX7219 LED drivers as the datasheet describes it, written from the
/// hardware fact sheet and not from the encoder: it takes the level changes a logic
/// analyser sees on DIN (line 0), CLK (line 1) and LOAD (line 2) and keeps what each chip
/// would hold.
///
/// Each chip is a 16-bit shift register: on CLK rising every chip shifts left by one,
/// chip 0 (the one whose DIN is probed) taking DIN and each next chip the bit leaving the
/// chip before it (its DOUT). On LOAD rising every chip carries out the word it holds:
/// D11-D8 the register, D7-D0 the data. Registers: `0x00` no-op, `0x01`-`0x08` digits
/// 0-7, `0x09` decode mode, `0x0A` intensity, `0x0B` scan limit, `0x0C` shutdown,
/// `0x0F` display test.
///
/// Reported in `violations`: a LOAD pulse after a number of clocks that is not one word
/// per chip, clocks while LOAD is high (a MAX7221 ignores them), and the unused
/// registers `0x0D` and `0x0E`.
public struct MAX7219ChainDecoder: LineDecoder {
  /// What one chip holds.
  public struct Chip: Equatable {
    /// Digit registers 0-7 as written, in no-decode order (D7 = DP, D6 = A ... D0 = G);
    /// nil until written, as their power-up content is undefined.
    public var digits: [UInt8?] = Array(repeating: nil, count: 8)
    /// `0x00` no decode ... `0xFF` Code B for every digit.
    public var decodeMode: UInt8 = 0
    /// 0-15.
    public var intensity: UInt8 = 0
    /// The last digit scanned, 0-7.
    public var scanLimit: UInt8 = 0
    /// In shutdown: nothing lit, registers kept (the power-up state).
    public var isShutdown = true
    /// Display test mode: every segment lit, whatever the registers hold.
    public var isDisplayTest = false
    /// How many words other than no-ops the chip latched.
    public var writes = 0

    /// A chip at power-up.
    public init() {}

    /// The segments each scanned digit shows, DIG0 first (nil for a digit never written),
    /// or nothing in shutdown. Display test and decode modes are not rendered.
    public var shownDigits: [UInt8?] {
      isShutdown ? [] : Array(digits[...Int(scanLimit)])
    }
  }

  /// The chips, index 0 the one whose DIN is probed.
  public private(set) var chips: [Chip]
  /// How many times LOAD rose.
  public private(set) var loadPulses = 0
  /// What broke the protocol, in order.
  public private(set) var violations: [String] = []

  /// Each chip's 16-bit shift register.
  private var shifted: [UInt16]
  private var data: Bool
  private var clock: Bool
  private var load: Bool
  /// Clock edges since the last LOAD rising edge.
  private var clocksSinceLoad = 0

  /// A chain of `chipCount` chips at power-up, on lines at the given levels when the
  /// capture starts (by default DIN and CLK low, LOAD high).
  public init(chipCount: Int, data: Bool = false, clock: Bool = false, load: Bool = true) {
    chips = Array(repeating: Chip(), count: chipCount)
    shifted = Array(repeating: 0, count: chipCount)
    self.data = data
    self.clock = clock
    self.load = load
  }

  /// Takes one level change: line 0 DIN, 1 CLK, 2 LOAD.
  public mutating func receive(line: Int, high: Bool) {
    switch line {
    case 0:
      data = high
    case 1:
      guard high != clock else { return }
      clock = high
      if high {
        shift()
      }
    case 2:
      guard high != load else { return }
      load = high
      if high {
        latch()
      }
    default:
      violations.append("a change on line \(line), which a MAX7219 chain does not have")
    }
  }

  private mutating func shift() {
    if load {
      violations.append("a clock while LOAD is high")
    }
    for chip in shifted.indices.reversed() {
      let incoming = chip == 0 ? (data ? 1 : 0) : shifted[chip - 1] >> 15
      shifted[chip] = shifted[chip] << 1 | incoming
    }
    clocksSinceLoad += 1
  }

  private mutating func latch() {
    if clocksSinceLoad != 16 * chips.count {
      violations.append(
        "LOAD after \(clocksSinceLoad) clocks, not \(16 * chips.count) for \(chips.count) chips")
    }
    clocksSinceLoad = 0
    loadPulses += 1
    for index in chips.indices {
      execute(shifted[index], on: index)
    }
  }

  private mutating func execute(_ word: UInt16, on index: Int) {
    let register = word >> 8 & 0x0F
    let value = UInt8(word & 0xFF)
    guard register != 0x00 else { return }
    chips[index].writes += 1
    switch register {
    case 0x01...0x08: chips[index].digits[Int(register) - 1] = value
    case 0x09: chips[index].decodeMode = value
    case 0x0A: chips[index].intensity = value & 0x0F
    case 0x0B: chips[index].scanLimit = value & 0x07
    case 0x0C: chips[index].isShutdown = value & 0x01 == 0
    case 0x0F: chips[index].isDisplayTest = value & 0x01 == 1
    default: violations.append("chip \(index): unused register \(register)")
    }
  }
}
