import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A chain of MAX7219 (or MAX7221) LED drivers bit-banged on three GPIO lines, 8 digits
/// per chip.
///
/// The lines are `[DIN, CLK, LOAD]`, idle low, low and high. Each chip takes 16-bit words
/// MSB first (register in bits 11-8, data in bits 7-0), DIN sampled on CLK rising; a
/// chain of N chips gets one word per chip, the first word shifted ending in the
/// farthest chip, then a LOAD pulse (low while shifting, so that a MAX7221 listens too,
/// rising to latch). Chips with nothing to do in a pulse get the no-op word `0x0000`.
///
/// The display's cells are split across the chips, `digitsPerChip` each, starting from
/// the chip wired to the Pi (`chainOrder`); the last chip may use fewer digits. Within a
/// chip, `digitOrder` says whether DIG0 is the leftmost or the rightmost of its digits.
///
/// The initialisation sends every chip display test off, no-decode mode, a scan limit
/// of its digits used less one, the intensity (the frame's brightness 0-15 1:1), every
/// used digit, and last the shutdown register (1 normal, 0 for a blank frame, which
/// keeps the digits). An update sends only the registers that changed, packing the
/// chips' changes into as few LOAD pulses as possible. A chip that lost power comes back
/// blank without telling, so everything is sent again every `reinitializeInterval`.
/// In no-decode mode the bits are D7..D0 = DP A B C D E F G.
public struct MAX7219Protocol: GPIOProtocol {
  /// The digit registers of one chip.
  public static let digitsPerChipRange = 1...8

  private enum Line {
    static let data = 0
    static let clock = 1
    static let load = 2
  }

  private enum Register {
    static let noOperation: UInt16 = 0x00
    static let firstDigit: UInt16 = 0x01
    static let decodeMode: UInt16 = 0x09
    static let intensity: UInt16 = 0x0A
    static let scanLimit: UInt16 = 0x0B
    static let shutdown: UInt16 = 0x0C
    static let displayTest: UInt16 = 0x0F
  }

  /// What one chip holds, as far as the encoder is concerned.
  private struct ChipState: Equatable {
    /// The used digit registers, from DIG0, in no-decode bit order.
    var digits: [UInt8]
    var intensity: UInt8
    /// 1 for normal operation, 0 for shutdown.
    var shutdown: UInt8
  }

  /// The cells of the display.
  public let cellCount: Int
  /// The digits each chip drives (the last chip may drive fewer).
  public let digitsPerChip: Int
  /// Where DIG0 of each chip is.
  public let digitOrder: DigitOrder
  /// Which cells the chip wired to the Pi holds.
  public let chainOrder: ChainOrder
  /// The wait between clock edges; the chip itself takes 10 MHz.
  public let bitDelay: Duration
  /// How often everything is sent again, for chips that lost power; nil for never.
  public let reinitializeInterval: Duration?

  /// The cells each chip shows, left to right, by chip from the one wired to the Pi.
  private let chipCells: [Range<Int>]
  private var shown: [ChipState]?

  /// An encoder for a display of `cellCount` cells.
  ///
  /// - Parameters:
  ///   - digitsPerChip: The digits wired to each chip (1-8); the chain has as many chips
  ///     as the cells need.
  ///   - digitOrder: Where DIG0 of each chip is.
  ///   - chainOrder: Whether the chip wired to the Pi holds the leftmost or the rightmost
  ///     cells.
  ///   - bitDelay: The wait between clock edges; none is needed.
  ///   - reinitializeInterval: How often everything is sent again; nil for never.
  public init(
    cellCount: Int, digitsPerChip: Int = 8, digitOrder: DigitOrder = .rightToLeft,
    chainOrder: ChainOrder = .leftmostFirst, bitDelay: Duration = .zero,
    reinitializeInterval: Duration? = .seconds(60)
  ) {
    precondition(cellCount > 0, "a display has cells")
    precondition(Self.digitsPerChipRange.contains(digitsPerChip), "a MAX7219 has 8 digits")
    self.cellCount = cellCount
    self.digitsPerChip = digitsPerChip
    self.digitOrder = digitOrder
    self.chainOrder = chainOrder
    self.bitDelay = bitDelay
    self.reinitializeInterval = reinitializeInterval
    chipCells = stride(from: 0, to: cellCount, by: digitsPerChip).map { offset in
      switch chainOrder {
      case .leftmostFirst: offset..<min(offset + digitsPerChip, cellCount)
      case .rightmostFirst: max(cellCount - offset - digitsPerChip, 0)..<(cellCount - offset)
      }
    }
  }

  /// The chips of the chain.
  public var chipCount: Int { chipCells.count }

  /// DIN, CLK and LOAD, push-pull, requested low, low and high.
  public var lines: [(role: String, settings: GPIOLineSettings)] {
    [
      ("DIN", .output(initialValue: false)),
      ("CLK", .output(initialValue: false)),
      ("LOAD", .output(initialValue: true)),
    ]
  }

  /// Every register of every chip, the shutdown register last.
  public mutating func initialize(showing frame: Frame) -> [LineStep] {
    let target = states(for: frame)
    let words = target.map { chip in
      [
        Self.word(Register.displayTest, 0),
        Self.word(Register.decodeMode, 0),
        Self.word(Register.scanLimit, UInt8(chip.digits.count - 1)),
        Self.word(Register.intensity, chip.intensity),
      ]
        + chip.digits.enumerated().map { Self.word(Register.firstDigit + UInt16($0), $1) }
        + [Self.word(Register.shutdown, chip.shutdown)]
    }
    shown = target
    return steps(sending: words)
  }

  /// The registers that changed (intensity, digits, shutdown); no steps when none did.
  public mutating func update(to frame: Frame) -> [LineStep] {
    guard let shown else { return initialize(showing: frame) }
    let target = states(for: frame)
    let words = zip(shown, target).map { old, new in
      var words: [UInt16] = []
      if new.intensity != old.intensity {
        words.append(Self.word(Register.intensity, new.intensity))
      }
      for digit in new.digits.indices where new.digits[digit] != old.digits[digit] {
        words.append(Self.word(Register.firstDigit + UInt16(digit), new.digits[digit]))
      }
      if new.shutdown != old.shutdown {
        words.append(Self.word(Register.shutdown, new.shutdown))
      }
      return words
    }
    self.shown = target
    return steps(sending: words)
  }

  /// Each chip's registers for `frame`.
  private func states(for frame: Frame) -> [ChipState] {
    let intensity = UInt8(min(max(frame.brightness, 0), 15))
    return chipCells.map { cells in
      var digits = [UInt8](repeating: 0, count: cells.count)
      for (position, cell) in cells.enumerated() {
        let segments = cell < frame.cells.count ? frame.cells[cell] : .blank
        let digit = digitOrder == .leftToRight ? position : cells.count - 1 - position
        digits[digit] = Self.noDecodeBits(segments)
      }
      return ChipState(digits: digits, intensity: intensity, shutdown: frame.isBlank ? 0 : 1)
    }
  }

  /// Sends `words[chip]` to each chip (index 0 = the chip wired to the Pi): in each LOAD
  /// pulse, every chip takes its next word or a no-op.
  private func steps(sending words: [[UInt16]]) -> [LineStep] {
    var writer = LineStepWriter(levels: [false, false, true], delay: bitDelay)
    let pulses = words.map(\.count).max() ?? 0
    for pulse in 0..<pulses {
      writer.set(Line.load, false)
      for chip in words.indices.reversed() {
        let word = pulse < words[chip].count ? words[chip][pulse] : Register.noOperation
        for bit in (0..<16).reversed() {
          writer.set(Line.data, word >> bit & 1 == 1)
          writer.pause()
          writer.set(Line.clock, true)
          writer.pause()
          writer.set(Line.clock, false)
        }
      }
      writer.set(Line.data, false)
      writer.pause()
      writer.set(Line.load, true)
      writer.pause()
    }
    return writer.steps
  }

  private static func word(_ register: UInt16, _ data: UInt8) -> UInt16 {
    register << 8 | UInt16(data)
  }

  /// `segments` in no-decode order: D7 = DP, D6 = A ... D0 = G.
  private static func noDecodeBits(_ segments: Segments) -> UInt8 {
    var bits = segments.contains(.dp) ? 0x80 as UInt8 : 0
    for segment in 0..<7 where segments.rawValue >> segment & 1 == 1 {
      bits |= 1 << (6 - segment)
    }
    return bits
  }
}
