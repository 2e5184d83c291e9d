/// The HT16K33 as its datasheet describes it, fed the I²C transfers a master makes: the
/// state of its oscillator, display and dimming, its 16 bytes of display RAM, and what
/// an Adafruit backpack built on it shows. Independent of the driver it judges.
///
/// Commands (one byte after the address): `0010 xxxS` system setup (S: oscillator on),
/// `1000 xBBD` display setup (D: display on; BB: blinking off, 2 Hz, 1 Hz, 0.5 Hz),
/// `1110 PPPP` dimming (duty PPPP+1 of 16), `1010 xxAR` ROW/INT set, `0000 AAAA` the
/// display-RAM address pointer. Data after a pointer command is written to RAM from that
/// address, the pointer incrementing and wrapping from 0x0F to 0x00. At power-on the
/// oscillator is off (standby), the display off, the dimming at 16/16.
///
/// The backpacks (Adafruit): seven-segment digits at RAM bytes 0, 2, 6, 8 (bit 0 = a ..
/// bit 6 = g, bit 7 = the point), the colon as bit 1 of byte 4; alphanumeric digits as
/// little-endian words at bytes 0, 2, 4, 6 with bits 0-5 = A-F, 6 = G1, 7 = G2, 8 = H,
/// 9 = J, 10 = K, 11 = L, 12 = M, 13 = N, 14 = DP.
public struct HT16K33Decoder {
  /// The display RAM.
  public private(set) var ram = [UInt8](repeating: 0, count: 16)
  /// Whether the oscillator runs (system setup S).
  public private(set) var isOscillatorOn = false
  /// Whether the display is on (display setup D).
  public private(set) var isDisplayOn = false
  /// The blinking (display setup BB): 0 off, 1 at 2 Hz, 2 at 1 Hz, 3 at 0.5 Hz.
  public private(set) var blinking = 0
  /// The dimming, 0 (1/16 duty) to 15 (16/16).
  public private(set) var dimming = 15
  /// Every RAM byte written, in order, as (address, value).
  public private(set) var ramWrites: [(address: Int, value: UInt8)] = []
  /// Transfers the chip does not understand.
  public private(set) var violations: [String] = []

  public init() {}

  /// A transfer of one byte: a command.
  public mutating func receive(command byte: UInt8) {
    switch byte >> 4 {
    case 0x0:
      break  // the address pointer alone: nothing is written
    case 0x2:
      isOscillatorOn = byte & 1 == 1
    case 0x8:
      isDisplayOn = byte & 1 == 1
      blinking = Int(byte >> 1 & 0b11)
    case 0xE:
      dimming = Int(byte & 0x0F)
    case 0xA:
      break  // ROW/INT output: not used by backpacks
    default:
      violations.append("unknown command 0x\(String(byte, radix: 16))")
    }
  }

  /// A transfer of a pointer command `command` (0x00-0x0F) followed by data bytes.
  public mutating func receive(command: UInt8, data: [UInt8]) {
    guard command <= 0x0F else {
      violations.append(
        "data after command 0x\(String(command, radix: 16)), which is not a RAM address")
      return
    }
    var address = Int(command)
    for byte in data {
      ram[address] = byte
      ramWrites.append((address, byte))
      address = (address + 1) % ram.count
    }
  }

  /// The chip loses power and comes back: standby, display off, RAM cleared (undefined
  /// on a real chip; cleared here so that a missing re-initialisation shows).
  public mutating func powerCycle() {
    ram = Array(repeating: 0, count: ram.count)
    isOscillatorOn = false
    isDisplayOn = false
    blinking = 0
    dimming = 15
  }

  /// Forgets the RAM writes seen so far.
  public mutating func clearWrites() {
    ramWrites = []
  }

  /// Whether anything is lit: oscillator and display on.
  public var isShowing: Bool {
    isOscillatorOn && isDisplayOn
  }

  // MARK: - Seven-segment backpack

  /// The segment bytes of the four digits, left to right.
  public var sevenSegmentDigits: [UInt8] {
    [ram[0], ram[2], ram[6], ram[8]]
  }

  /// Whether the colon between the second and third digits is lit.
  public var isColonLit: Bool {
    ram[4] & 0x02 != 0
  }

  /// The digits read as text: each digit's character (`?` for a pattern that is not a
  /// digit, a space for a dark one), `.` after a lit point, `:` for the colon.
  public var sevenSegmentText: String {
    let patterns: [UInt8: Character] = [
      0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6", 0x07: "7",
      0x7F: "8", 0x6F: "9", 0x40: "-", 0x00: " ",
    ]
    var text = ""
    for (index, byte) in sevenSegmentDigits.enumerated() {
      text.append(patterns[byte & 0x7F] ?? "?")
      if byte & 0x80 != 0 {
        text.append(".")
      }
      if index == 1 && isColonLit {
        text.append(":")
      }
    }
    return text
  }

  // MARK: - Alphanumeric backpack

  /// The 16-bit words of the four digits, left to right.
  public var alphanumericDigits: [UInt16] {
    (0..<4).map { UInt16(ram[2 * $0]) | UInt16(ram[2 * $0 + 1]) << 8 }
  }

  /// The names of the lit segments of each digit, in bit order (`["B", "C", "G1"]`).
  public var alphanumericSegments: [[String]] {
    let names = ["A", "B", "C", "D", "E", "F", "G1", "G2", "H", "J", "K", "L", "M", "N", "DP"]
    return alphanumericDigits.map { word in
      names.indices.filter { word >> $0 & 1 == 1 }.map { names[$0] }
    }
  }
}
