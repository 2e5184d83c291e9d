import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A chain of 8-bit shift registers, one per cell (74HC595, TPIC6B595, TPIC6C596 on
/// large-digit boards), bit-banged on GPIO lines.
///
/// The lines are `[SER, SRCLK, RCLK]`, idle low, and optionally OE (active low) last.
/// Each bit is put on SER and shifted in on SRCLK rising, the output QH first and QA last
/// for each register, the farthest register first; RCLK rising then latches every
/// register's outputs at once. Registers have no addresses: when anything changed the
/// whole chain is sent, and nothing when nothing did.
///
/// A blank frame raises OE when the chain has it (the registers keep the cells), and
/// otherwise latches every segment off. With OE, the outputs are enabled only once the
/// first frame is latched, so the registers' power-up contents are never shown. OE is
/// not pulsed for brightness: the frame's brightness is not shown.
public struct ShiftRegisterProtocol: GPIOProtocol {
  /// Segments A-G and DP on QA-QH, in the canonical bit order.
  public static let canonicalOrder: [Segments] = [.a, .b, .c, .d, .e, .f, .g, .dp]
  /// The SparkFun Large Digit Driver (TPIC6C596): `a, f, g, e, d, c, b, dp` on QA-QH
  /// (bits 0-7 shifted MSB first), the register wired to the Pi holding the leftmost
  /// digit (the least significant digit is shifted first).
  public static let sparkFunLargeDigitOrder: [Segments] = [.a, .f, .g, .e, .d, .c, .b, .dp]

  private enum Line {
    static let data = 0
    static let shiftClock = 1
    static let latchClock = 2
    static let outputEnable = 3
  }

  /// What the chain holds, as far as the encoder is concerned.
  private struct Shown: Equatable {
    /// The latched outputs of each register, from the one wired to the Pi; bit 0 = QA.
    var outputs: [UInt8]
    /// The OE line's level (high disables the outputs); nil without OE.
    var outputEnableHigh: Bool?
  }

  /// The cells of the display, one register each.
  public let cellCount: Int
  /// The segment on each output, QA first: 8 distinct single segments.
  public let segmentOrder: [Segments]
  /// Which cell the register wired to the Pi holds.
  public let chainOrder: ChainOrder
  /// Lit segments are low outputs (common-anode digits on a 74HC595).
  public let invert: Bool
  /// The chain's OE is wired, as the fourth line.
  public let hasOutputEnable: Bool
  /// The wait between clock edges.
  public let bitDelay: Duration
  /// How often the chain is sent again, for registers that lost power; nil for never.
  public let reinitializeInterval: Duration?

  private var shown: Shown?

  /// An encoder for a chain of `cellCount` registers.
  ///
  /// - Parameters:
  ///   - segmentOrder: The segment on QA, QB, ... QH.
  ///   - chainOrder: Whether the register wired to the Pi holds the leftmost or the
  ///     rightmost cell.
  ///   - invert: A lit segment is a low output.
  ///   - hasOutputEnable: OE is wired, as a fourth line; blank frames use it.
  ///   - bitDelay: The wait between clock edges.
  ///   - reinitializeInterval: How often the chain is sent again although nothing
  ///     changed, for registers that lost power; nil for never.
  public init(
    cellCount: Int, segmentOrder: [Segments] = canonicalOrder,
    chainOrder: ChainOrder = .leftmostFirst, invert: Bool = false,
    hasOutputEnable: Bool = false, bitDelay: Duration = .microseconds(1),
    reinitializeInterval: Duration? = .seconds(60)
  ) {
    precondition(cellCount > 0, "a display has cells")
    precondition(
      segmentOrder.count == 8 && segmentOrder.allSatisfy { $0.rawValue.nonzeroBitCount == 1 }
        && Set(segmentOrder).count == 8,
      "each of the 8 outputs drives its own segment")
    self.cellCount = cellCount
    self.segmentOrder = segmentOrder
    self.chainOrder = chainOrder
    self.invert = invert
    self.hasOutputEnable = hasOutputEnable
    self.bitDelay = bitDelay
    self.reinitializeInterval = reinitializeInterval
  }

  /// SER, SRCLK and RCLK, push-pull, requested low; OE, when wired, requested high
  /// (outputs disabled until the first frame is latched).
  public var lines: [(role: String, settings: GPIOLineSettings)] {
    let clocks: [(role: String, settings: GPIOLineSettings)] = [
      ("SER", .output()), ("SRCLK", .output()), ("RCLK", .output()),
    ]
    return hasOutputEnable ? clocks + [("OE", .output(initialValue: true))] : clocks
  }

  /// The whole chain, latched, then OE.
  public mutating func initialize(showing frame: Frame) -> [LineStep] {
    let target = shown(for: frame)
    var writer = idleWriter(outputEnableHigh: nil)
    shift(target.outputs, on: &writer)
    if let high = target.outputEnableHigh {
      writer.set(Line.outputEnable, high)
    }
    shown = target
    return writer.steps
  }

  /// The whole chain when any register changed, and OE when it changed.
  public mutating func update(to frame: Frame) -> [LineStep] {
    guard let shown else { return initialize(showing: frame) }
    let target = self.shown(for: frame)
    var writer = idleWriter(outputEnableHigh: shown.outputEnableHigh)
    if target.outputs != shown.outputs {
      shift(target.outputs, on: &writer)
    }
    if let high = target.outputEnableHigh {
      writer.set(Line.outputEnable, high)
    }
    self.shown = target
    return writer.steps
  }

  /// A writer for the clocks and SER idle low, and OE at `outputEnableHigh` (nil:
  /// unknown).
  private func idleWriter(outputEnableHigh: Bool?) -> LineStepWriter {
    LineStepWriter(
      levels: [false, false, false] + (hasOutputEnable ? [outputEnableHigh] : []),
      delay: bitDelay)
  }

  /// Shifts `outputs` in, the farthest register first and QH first, then latches them.
  private func shift(_ outputs: [UInt8], on writer: inout LineStepWriter) {
    for byte in outputs.reversed() {
      for output in (0..<8).reversed() {
        writer.set(Line.data, byte >> output & 1 == 1)
        writer.pause()
        writer.set(Line.shiftClock, true)
        writer.pause()
        writer.set(Line.shiftClock, false)
      }
    }
    writer.set(Line.data, false)
    writer.pause()
    writer.set(Line.latchClock, true)
    writer.pause()
    writer.set(Line.latchClock, false)
  }

  /// The chain's outputs and OE level for `frame`.
  private func shown(for frame: Frame) -> Shown {
    let dark = frame.isBlank && !hasOutputEnable
    let outputs = (0..<cellCount).map { register in
      let cell = chainOrder == .leftmostFirst ? register : cellCount - 1 - register
      let segments = !dark && cell < frame.cells.count ? frame.cells[cell] : .blank
      var byte: UInt8 = 0
      for (output, segment) in segmentOrder.enumerated() where segments.contains(segment) {
        byte |= 1 << output
      }
      return invert ? ~byte : byte
    }
    return Shown(outputs: outputs, outputEnableHigh: hasOutputEnable ? frame.isBlank : nil)
  }
}
