import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A TM1637 LED driver module bit-banged on two GPIO lines: up to 6 digits, no address,
/// an acknowledgement after every byte.
///
/// The lines are `[CLK, DIO]`, both idle high; DIO is open-drain, as the module pulls it
/// up. Bytes go LSB first, DIO changing only while CLK is low; START is DIO falling while
/// CLK is high, STOP is DIO rising while CLK is high. In the 9th clock of each byte DIO is
/// released and read while CLK is high: the chip must hold it low. A frame that misses an
/// acknowledgement stops there, with CLK high and DIO released.
///
/// The initialisation writes every grid the display uses with auto-increment
/// (`[S 0x40 P] [S 0xC0 g0 .. gn P]`) and then the display control (`[S 0x88|b P]`, or
/// `[S 0x80 P]` for a blank frame; the grids keep their content). An update sends only
/// what changed: when grids changed, either one auto-increment run from the first to the
/// last changed grid, or a fixed-address write (`[S 0x44 P]`, then `[S 0xC0+g d P]` per
/// changed grid), whichever is fewer bytes, fixed addresses on a tie; so when one or two
/// grids changed only those are sent. The display control follows when brightness or
/// blanking changed. Brightness 0-15 maps to the chip's 0-7 as `b / 2`.
///
/// Bit 7 of a grid drives the decimal point of its digit, except on "clock" modules
/// (`colon`), which wire only a colon, to bit 7 of grid 1, between the second and third
/// digits: there the frame's decimal points are not shown, and the colon is lit when the
/// frame has one after cell 1 (a clock's `12:34`); on a display without a clock (the
/// frame's `colons` nil) it is a separator, lit while the display shows.
public struct TM1637Protocol: GPIOProtocol {
  /// The grids (digit positions) of the chip.
  public static let gridCount = 6

  private enum Line {
    static let clock = 0
    static let data = 1
  }

  /// The bit of a grid that drives a decimal point or the colon.
  private static let pointBit: UInt8 = 0x80
  /// The grid whose bit 7 drives the colon of clock modules.
  private static let colonGrid = 1
  /// The cell the colon of clock modules follows.
  private static let colonCell = 1

  /// The cells of the display, at most 6.
  public let cellCount: Int
  /// The grid each cell is on: cell `i` is shown by grid `gridOrder[i]`.
  public let gridOrder: [Int]
  /// The module has a colon on bit 7 of grid 1 and no decimal points.
  public let colon: Bool
  /// The wait between clock edges.
  public let bitDelay: Duration
  /// How often everything is sent again although every byte was acknowledged; nil for
  /// never.
  public let reinitializeInterval: Duration?

  /// How many grids, from grid 0, the display uses.
  private let usedGrids: Int
  /// The used grids, from grid 0, canonical bit order, and the display control.
  private var shown: TitanMicroCommands.State?

  /// An encoder for a module showing `cellCount` cells (1-6).
  ///
  /// - Parameters:
  ///   - gridOrder: The grid of each cell, left to right; by default cell `i` is on grid
  ///     `i`. Six-digit modules are commonly wired `[2, 1, 0, 5, 4, 3]`.
  ///   - colon: The module is a clock module: the colon on bit 7 of grid 1 is lit where
  ///     the frame has a colon after cell 1, or always when the frame has no clock, and
  ///     decimal points are not shown.
  ///   - bitDelay: The wait between clock edges; portable libraries use 100 µs, the
  ///     chip's own minimum is a few hundred nanoseconds.
  ///   - reinitializeInterval: How often everything is sent again, for a module that lost
  ///     power and came back dark without a missing acknowledgement; nil for never.
  public init(
    cellCount: Int, gridOrder: [Int]? = nil, colon: Bool = false,
    bitDelay: Duration = .microseconds(100), reinitializeInterval: Duration? = .seconds(60)
  ) {
    precondition((1...Self.gridCount).contains(cellCount), "a TM1637 has 6 grids")
    let gridOrder = gridOrder ?? Array(0..<cellCount)
    precondition(gridOrder.count == cellCount, "one grid per cell")
    precondition(Set(gridOrder).count == cellCount, "each cell on its own grid")
    precondition(gridOrder.allSatisfy { (0..<Self.gridCount).contains($0) }, "grids are 0-5")
    self.cellCount = cellCount
    self.gridOrder = gridOrder
    self.colon = colon
    self.bitDelay = bitDelay
    self.reinitializeInterval = reinitializeInterval
    usedGrids = max(gridOrder.max()! + 1, colon ? Self.colonGrid + 1 : 0)
  }

  /// CLK (push-pull) and DIO (open-drain), both requested high.
  public var lines: [(role: String, settings: GPIOLineSettings)] {
    [
      ("CLK", .output(initialValue: true)),
      ("DIO", .output(initialValue: true, drive: .openDrain)),
    ]
  }

  /// Takes DIO back (a failed frame leaves it released), then writes every used grid and
  /// the display control.
  public mutating func initialize(showing frame: Frame) -> [LineStep] {
    let target = shown(for: frame)
    var writer = idleWriter()
    writer.drive(Line.data, true)
    for bytes in TitanMicroCommands.transactions(from: nil, to: target) {
      transaction(bytes, on: &writer)
    }
    shown = target
    return writer.steps
  }

  /// The grids that changed, as whichever of auto-increment or fixed addresses is
  /// shorter, then the display control if it changed. Initialises a module that never
  /// was.
  public mutating func update(to frame: Frame) -> [LineStep] {
    guard let shown else { return initialize(showing: frame) }
    let target = self.shown(for: frame)
    var writer = idleWriter()
    for bytes in TitanMicroCommands.transactions(from: shown, to: target) {
      transaction(bytes, on: &writer)
    }
    self.shown = target
    return writer.steps
  }

  /// A writer for the idle bus: CLK and DIO high.
  private func idleWriter() -> LineStepWriter {
    LineStepWriter(levels: [true, true], delay: bitDelay)
  }

  /// START, `bytes` LSB first each with its acknowledgement slot, STOP.
  private func transaction(_ bytes: [UInt8], on writer: inout LineStepWriter) {
    writer.set(Line.data, false)
    writer.pause()
    for byte in bytes {
      for bit in 0..<8 {
        writer.set(Line.clock, false)
        writer.set(Line.data, byte >> bit & 1 == 1)
        writer.pause()
        writer.set(Line.clock, true)
        writer.pause()
      }
      writer.set(Line.clock, false)
      writer.release(Line.data)
      writer.pause()
      writer.set(Line.clock, true)
      writer.pause()
      writer.expectLow(Line.data)
      writer.set(Line.clock, false)
      writer.drive(Line.data, false)
    }
    writer.pause()
    writer.set(Line.clock, true)
    writer.pause()
    writer.set(Line.data, true)
    writer.pause()
  }

  /// The chip's grids and display control for `frame`.
  private func shown(for frame: Frame) -> TitanMicroCommands.State {
    var grids = [UInt8](repeating: 0, count: usedGrids)
    for (cell, grid) in gridOrder.enumerated() {
      let segments = cell < frame.cells.count ? frame.cells[cell] : .blank
      grids[grid] = colon ? segments.withoutPoint.rawValue : segments.rawValue
    }
    if colon, frame.colons?.contains(Self.colonCell) ?? true {
      grids[Self.colonGrid] |= Self.pointBit
    }
    return TitanMicroCommands.State(
      registers: grids, control: TitanMicroCommands.displayControl(for: frame))
  }
}
