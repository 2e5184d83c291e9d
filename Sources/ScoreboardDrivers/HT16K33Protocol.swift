import ScoreboardCore
import ScoreboardSettings

/// The HT16K33 LED driver of one Adafruit backpack: what to send it, as I²C commands and
/// display-RAM writes, to show four cells of a frame.
///
/// Commands are single bytes (SMBus send-byte): `0x21` starts the oscillator, `0xE0 | d`
/// sets the dimming (16 levels: the frame's brightness 0-15 as it is), `0x80 | 1` turns
/// the display on without blinking, `0x80` off (a blank frame; the RAM keeps its
/// content). The display RAM is 16 bytes, written as an I2C-block write at its first
/// address.
///
/// The seven-segment backpack has its digits at RAM bytes 0, 2, 6 and 8 in the canonical
/// bit order (bit 7 the decimal point), and its colon at byte 4 (`0x02`): lit where the
/// frame has a colon after the second cell (a clock's `12:34`; that cell's point, which
/// the frame lights for displays without a colon, is then left dark), or, with
/// `colon`, always on a display without a clock. The alphanumeric backpack keeps a
/// little-endian 16-bit word per digit at bytes 0, 2, 4 and 6, in
/// `AlphanumericSegments`' order; each cell shows the frame's character for it (the
/// seven-segment font's reading of the cell where the frame has no characters).
///
/// The initialisation is `0x21`, the dimming, the whole RAM, the display setup. An
/// update writes only the RAM bytes from the first to the last one that changed, then
/// the dimming and the setup if they changed.
public struct HT16K33Protocol: Sendable {
  /// One transfer to the chip.
  public enum Write: Hashable, Sendable {
    /// A command byte (SMBus send-byte).
    case command(UInt8)
    /// Display RAM from `start` on (an I2C-block write with `start` as its command byte).
    case ram(start: UInt8, bytes: [UInt8])
  }

  /// The chip's display RAM, in bytes.
  public static let ramSize = 16

  private enum Command {
    static let oscillatorOn: UInt8 = 0x21
    static let displayOff: UInt8 = 0x80
    static let displayOn: UInt8 = 0x81
    static let dimming: UInt8 = 0xE0
  }

  /// The RAM bytes of the seven-segment backpack's digits, left to right.
  private static let digitBytes = [0, 2, 6, 8]
  /// The RAM byte of the seven-segment backpack's colon, and its bit.
  private static let colonByte = 4
  private static let colonBit: UInt8 = 0x02
  /// The cell the colon follows.
  private static let colonCell = 1

  /// What the chip holds, as far as the encoder knows.
  private struct Shown: Equatable {
    var ram: [UInt8]
    var dimming: UInt8
    var setup: UInt8
  }

  /// The kind of backpack.
  public let backpack: HT16K33Backpack
  /// A seven-segment backpack's colon is a separator, lit on displays without a clock.
  public let colon: Bool
  private var shown: Shown?

  /// An encoder for one backpack of `backpack`'s kind.
  public init(backpack: HT16K33Backpack, colon: Bool = false) {
    self.backpack = backpack
    self.colon = colon
  }

  /// Everything: oscillator, dimming, the whole RAM, display setup.
  public mutating func initialize(showing frame: Frame) -> [Write] {
    let target = shown(for: frame)
    shown = target
    return [
      .command(Command.oscillatorOn), .command(target.dimming),
      .ram(start: 0, bytes: target.ram), .command(target.setup),
    ]
  }

  /// The RAM bytes that changed, as one run, then the dimming and the setup if they
  /// changed. Initialises a chip that never was.
  public mutating func update(to frame: Frame) -> [Write] {
    guard let shown else { return initialize(showing: frame) }
    let target = self.shown(for: frame)
    var writes: [Write] = []
    let changed = target.ram.indices.filter { target.ram[$0] != shown.ram[$0] }
    if let first = changed.first, let last = changed.last {
      writes.append(.ram(start: UInt8(first), bytes: Array(target.ram[first...last])))
    }
    if target.dimming != shown.dimming {
      writes.append(.command(target.dimming))
    }
    if target.setup != shown.setup {
      writes.append(.command(target.setup))
    }
    self.shown = target
    return writes
  }

  /// The chip's RAM, dimming and setup for the first four cells of `frame`.
  private func shown(for frame: Frame) -> Shown {
    var ram = [UInt8](repeating: 0, count: Self.ramSize)
    func cell(_ index: Int) -> Segments {
      index < frame.cells.count ? frame.cells[index] : .blank
    }
    switch backpack {
    case .sevenSegment:
      let colonLit = frame.colons.map { $0.contains(Self.colonCell) } ?? colon
      for (index, byte) in Self.digitBytes.enumerated() {
        let segments = colonLit && index == Self.colonCell ? cell(index).withoutPoint : cell(index)
        ram[byte] = segments.rawValue
      }
      if colonLit {
        ram[Self.colonByte] = Self.colonBit
      }
    case .alphanumeric:
      for index in 0..<HT16K33Backpack.digitsPerBackpack {
        let character =
          frame.characters.map { index < $0.count ? $0[index] : " " }
          ?? SegmentFont.character(for: cell(index)) ?? " "
        var segments = AlphanumericFont.segments(for: character) ?? []
        if cell(index).contains(.dp) {
          segments.insert(.dp)
        }
        ram[2 * index] = UInt8(segments.rawValue & 0xFF)
        ram[2 * index + 1] = UInt8(segments.rawValue >> 8)
      }
    }
    let dimming = Command.dimming | UInt8(min(max(frame.brightness, 0), 15))
    return Shown(
      ram: ram, dimming: dimming, setup: frame.isBlank ? Command.displayOff : Command.displayOn)
  }
}
