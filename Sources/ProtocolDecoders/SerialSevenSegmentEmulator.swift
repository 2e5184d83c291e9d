/// A SparkFun Serial 7-Segment Display as its datasheet describes it, written from the
/// hardware fact sheet and not from the encoder: it takes the bytes a module receives on
/// its UART and keeps what the module would show.
///
/// Bytes below `0x76`, and `0x78` (`x`, a dark digit), are shown at the cursor, which then
/// advances modulo 4; `0x00`-`0x0F` show as hex digits, ASCII digits and the letters
/// A-F as those digits, other characters as themselves. Commands: `0x76` clears the
/// digits and homes the cursor (the fact sheet says nothing of the points, so they are
/// left alone and an encoder must set them itself); `0x77 d` decimal points, colon and
/// apostrophe; `0x79 n` cursor; `0x7A n` brightness 0-100; `0x7B`-`0x7E` + byte raw
/// segments of digits 1-4; `0x7F`, `0x80` and `0x82` take one argument byte (baud rate,
/// I2C address, mode); `0x81` is a factory reset. Brightness, baud rate, address, mode
/// and factory reset are EEPROM writes, which it counts.
public struct SerialSevenSegmentEmulator {
  /// What a digit shows.
  public enum Glyph: Equatable {
    /// Segments A-G, bit 0 = A.
    case segments(UInt8)
    /// A character the emulator has no font for, as received.
    case character(UInt8)
  }

  /// Segments of the hex digits 0-F (`b` and `d` in lower case), from the fact sheet's
  /// digits 0-9 and the usual letters.
  public static let hexFont: [UInt8] = [
    0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F,
    0x77, 0x7C, 0x39, 0x5E, 0x79, 0x71,
  ]

  /// The 4 digits, left to right. A module in an unknown state: whatever it showed last.
  public private(set) var digits: [Glyph] = Array(repeating: .segments(0x7F), count: 4)
  /// Bits 0-3 = decimal points of digits 1-4, bit 4 = colon, bit 5 = apostrophe.
  public private(set) var points: UInt8 = 0b0011_1111
  /// Whether the decimal point of each digit, left to right, is lit (bits 0-3 of `points`).
  public var decimalPoints: [Bool] {
    (0..<4).map { points >> $0 & 1 == 1 }
  }
  /// Whether the colon between digits 2 and 3 is lit (bit 4 of `points`).
  public var isColonLit: Bool {
    points & 0b0001_0000 != 0
  }
  /// Whether the apostrophe is lit (bit 5 of `points`).
  public var isApostropheLit: Bool {
    points & 0b0010_0000 != 0
  }
  /// 0-100, kept in EEPROM; a value the encoder never uses, to see that it sets one.
  public private(set) var brightness = 42
  /// The digit the next character goes to, 0-3.
  public private(set) var cursor = 2
  /// How many brightness commands arrived (each one an EEPROM write).
  public private(set) var brightnessCommands = 0
  /// How many other EEPROM writes arrived: baud rate, I2C address, mode, factory reset.
  public private(set) var otherEEPROMWrites = 0
  /// Bytes the datasheet gives no meaning, or arguments out of range.
  public private(set) var violations: [String] = []

  /// A command waiting for its argument byte.
  private var command: UInt8?

  /// Whether the next byte is the argument of a command already begun; when false, the
  /// next byte begins a command or shows a character.
  public var isAwaitingArgument: Bool { command != nil }

  /// A module in an unknown state, as after power-up with old EEPROM contents.
  public init() {}

  /// Takes bytes as they arrive on the UART.
  public mutating func receive(_ bytes: [UInt8]) {
    for byte in bytes {
      receive(byte)
    }
  }

  private mutating func receive(_ byte: UInt8) {
    if let command {
      self.command = nil
      execute(command, argument: byte)
      return
    }
    switch byte {
    case 0x76:
      digits = Array(repeating: .segments(0), count: 4)
      cursor = 0
    case 0x77, 0x79, 0x7A, 0x7B...0x7E, 0x7F, 0x80, 0x82:
      command = byte
    case 0x81:
      brightness = 100
      otherEEPROMWrites += 1
    case 0x00..<0x76, 0x78:
      digits[cursor] = Self.glyph(for: byte)
      cursor = (cursor + 1) % 4
    default:
      violations.append("undefined byte \(byte)")
    }
  }

  private mutating func execute(_ command: UInt8, argument: UInt8) {
    switch command {
    case 0x77:
      if argument & 0b1100_0000 != 0 {
        violations.append("points byte \(argument) sets bits 6-7")
      }
      points = argument & 0b0011_1111
    case 0x79:
      guard argument < 4 else {
        violations.append("cursor \(argument)")
        return
      }
      cursor = Int(argument)
    case 0x7A:
      brightnessCommands += 1
      guard argument <= 100 else {
        violations.append("brightness \(argument)")
        return
      }
      brightness = Int(argument)
    case 0x7B...0x7E:
      if argument & 0x80 != 0 {
        violations.append("raw segments \(argument) set bit 7")
      }
      digits[Int(command - 0x7B)] = .segments(argument & 0x7F)
    default:
      otherEEPROMWrites += 1
    }
  }

  private static func glyph(for byte: UInt8) -> Glyph {
    switch byte {
    case 0x00...0x0F: .segments(hexFont[Int(byte)])
    case UInt8(ascii: "0")...UInt8(ascii: "9"): .segments(hexFont[Int(byte - UInt8(ascii: "0"))])
    case UInt8(ascii: "A")...UInt8(ascii: "F"):
      .segments(hexFont[Int(byte - UInt8(ascii: "A")) + 10])
    case UInt8(ascii: "a")...UInt8(ascii: "f"):
      .segments(hexFont[Int(byte - UInt8(ascii: "a")) + 10])
    case UInt8(ascii: "x"): .segments(0)
    default: .character(byte)
    }
  }
}
