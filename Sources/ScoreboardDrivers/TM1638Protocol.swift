import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A TM1638 "LED&KEY" board bit-banged on three GPIO lines: eight digits, eight LEDs and
/// eight buttons on one chip.
///
/// The lines are `[STB, CLK, DIO]`, all idle high; DIO is open-drain, as the board pulls
/// it up. Each transaction is framed by STB low and STB high; its first byte is the
/// command. Bytes go LSB first, DIO changing while CLK is low, taken by the chip on CLK's
/// rising edge; there is no acknowledgement.
///
/// The chip has 16 display registers; the board wires digit (grid) g to register 2g (bit
/// 0 = A ... bit 6 = G, bit 7 = DP: decimal points are shown) and LED n to bit 0 of
/// register 2n + 1, which the frame's `indicators` light. The initialisation writes every
/// register with auto-increment (`[0x40] [0xC0 r0 .. r15]`) and then the display control
/// (`[0x88|b]`, or `[0x80]` for a blank frame, which darkens the LEDs too); an update
/// sends only the registers that changed and the display control if it changed, as
/// `TitanMicroCommands.changes(from:to:)` chooses. Brightness 0-15 maps to the chip's 0-7
/// as `b / 2`.
///
/// A key read (`keyRead()`) is `[STB low, 0x42, DIO released, Twait, 32 clocks, STB
/// high]`, then DIO is driven high again: the chip puts each bit on DIO on CLK's falling
/// edge, LSB first, and the bit is sampled at the end of CLK's high half. Its 4 bytes hold
/// K3, K2 and K1 by KS1-KS8; the board wires S1-S8 to K3, so byte i bit 0 is S(i+1) and
/// bit 4 is S(i+5), and every other bit reads 0. A board that is not there leaves DIO to
/// its pull-up: those bits read 1 (`isAnswer(_:)`).
public struct TM1638Protocol: GPIOProtocol {
  /// The grids (digit positions) of the chip.
  public static let gridCount = 8
  /// The LEDs of the board.
  public static let lightCount = 8
  /// The buttons of the board, S1-S8.
  public static let buttonCount = 8
  /// The bits of a key read: 4 bytes.
  public static let keyReadBits = 32
  /// How long a key read waits between the last clock of its command and the first clock
  /// of the chip's answer: the datasheet's Twait is at least 1 µs (2 µs in some editions).
  public static let keyReadWait: Duration = .microseconds(2)

  private enum Line {
    static let strobe = 0
    static let clock = 1
    static let data = 2
  }

  /// The cells of the display, at most 8.
  public let cellCount: Int
  /// The grid each cell is on: cell `i` is shown by grid `gridOrder[i]`.
  public let gridOrder: [Int]
  /// The wait between clock edges.
  public let bitDelay: Duration
  /// How often everything is sent again, for a board that lost power and came back
  /// dark; nil for never.
  public let reinitializeInterval: Duration?

  /// The 16 display registers and the display control the chip holds, as far as the
  /// encoder knows.
  private var shown: TitanMicroCommands.State?

  /// An encoder for a board showing `cellCount` cells (1-8).
  ///
  /// - Parameters:
  ///   - gridOrder: The grid of each cell, left to right; by default cell `i` is on grid
  ///     `i`, as on the LED&KEY board.
  ///   - bitDelay: The wait between clock edges; the chip takes a clock of up to 1 MHz
  ///     (500 ns each half), and the board's pull-up needs a microsecond or two to raise
  ///     DIO in a key read.
  ///   - reinitializeInterval: How often everything is sent again; nil for never.
  public init(
    cellCount: Int, gridOrder: [Int]? = nil, bitDelay: Duration = .microseconds(2),
    reinitializeInterval: Duration? = .seconds(60)
  ) {
    precondition((1...Self.gridCount).contains(cellCount), "a TM1638 has 8 grids")
    let gridOrder = gridOrder ?? Array(0..<cellCount)
    precondition(gridOrder.count == cellCount, "one grid per cell")
    precondition(Set(gridOrder).count == cellCount, "each cell on its own grid")
    precondition(gridOrder.allSatisfy { (0..<Self.gridCount).contains($0) }, "grids are 0-7")
    self.cellCount = cellCount
    self.gridOrder = gridOrder
    self.bitDelay = bitDelay
    self.reinitializeInterval = reinitializeInterval
  }

  /// STB and CLK (push-pull) and DIO (open-drain), all requested high.
  public var lines: [(role: String, settings: GPIOLineSettings)] {
    [
      ("STB", .output(initialValue: true)),
      ("CLK", .output(initialValue: true)),
      ("DIO", .output(initialValue: true, drive: .openDrain)),
    ]
  }

  /// Takes DIO back (a key read cut short leaves it released), then writes every
  /// register and the display control.
  public mutating func initialize(showing frame: Frame) -> [LineStep] {
    let target = state(for: frame)
    var writer = idleWriter()
    writer.drive(Line.data, true)
    play(TitanMicroCommands.transactions(from: nil, to: target), on: &writer)
    shown = target
    return writer.steps
  }

  /// The registers that changed, then the display control if it changed. Initialises a
  /// board that never was.
  public mutating func update(to frame: Frame) -> [LineStep] {
    guard shown != nil else { return initialize(showing: frame) }
    let target = state(for: frame)
    var writer = idleWriter()
    play(TitanMicroCommands.transactions(from: shown, to: target), on: &writer)
    shown = target
    return writer.steps
  }

  /// The steps of one key read; its `sample` steps read the 32 bits of the answer, in
  /// order.
  public func keyRead() -> [LineStep] {
    var writer = idleWriter()
    writer.set(Line.strobe, false)
    writer.pause()
    send(TitanMicroCommands.readKeys, on: &writer)
    writer.release(Line.data)
    writer.wait(max(Self.keyReadWait, bitDelay))
    for _ in 0..<Self.keyReadBits {
      writer.set(Line.clock, false)
      writer.pause()
      writer.set(Line.clock, true)
      writer.pause()
      writer.sample(Line.data)
    }
    writer.set(Line.strobe, true)
    writer.pause()
    writer.drive(Line.data, true)
    return writer.steps
  }

  /// The bit of a key read that button `button` (0 for S1 ... 7 for S8) is read in.
  public static func bit(of button: Int) -> Int {
    (button % 4) * 8 + (button < 4 ? 0 : 4)
  }

  /// Whether the 32 samples of a key read come from a chip: every bit that no button
  /// of the board is on reads 0.
  public static func isAnswer(_ samples: [Bool]) -> Bool {
    let buttonBits = Set((0..<buttonCount).map(bit(of:)))
    return samples.count == keyReadBits
      && samples.indices.allSatisfy { buttonBits.contains($0) || !samples[$0] }
  }

  /// Whether each of S1-S8 is down, from the 32 samples of a key read.
  public static func buttonsDown(in samples: [Bool]) -> [Bool] {
    (0..<buttonCount).map { samples[bit(of: $0)] }
  }

  /// A writer for the idle lines: STB, CLK and DIO high.
  private func idleWriter() -> LineStepWriter {
    LineStepWriter(levels: [true, true, true], delay: bitDelay)
  }

  /// Each of `transactions` framed by STB low and STB high, DIO left high after each.
  private func play(_ transactions: [[UInt8]], on writer: inout LineStepWriter) {
    for bytes in transactions {
      writer.set(Line.strobe, false)
      writer.pause()
      for byte in bytes {
        send(byte, on: &writer)
      }
      writer.set(Line.strobe, true)
      writer.pause()
      writer.set(Line.data, true)
    }
  }

  /// `byte` LSB first: DIO set while CLK is low, taken on CLK's rising edge.
  private func send(_ byte: UInt8, on writer: inout LineStepWriter) {
    for bit in 0..<8 {
      writer.set(Line.clock, false)
      writer.set(Line.data, byte >> bit & 1 == 1)
      writer.pause()
      writer.set(Line.clock, true)
      writer.pause()
    }
  }

  /// The chip's registers and display control for `frame`.
  private func state(for frame: Frame) -> TitanMicroCommands.State {
    var registers = [UInt8](repeating: 0, count: 2 * Self.gridCount)
    for (cell, grid) in gridOrder.enumerated() where cell < frame.cells.count {
      registers[2 * grid] = frame.cells[cell].rawValue
    }
    for (light, isLit) in frame.indicators.prefix(Self.lightCount).enumerated() where isLit {
      registers[2 * light + 1] = 1
    }
    return TitanMicroCommands.State(
      registers: registers, control: TitanMicroCommands.displayControl(for: frame))
  }
}
