/// A daisy chain of 8-bit serial-in, parallel-out shift registers with output latches
/// (74HC595, TPIC6B595, TPIC6C596), written from the hardware fact sheet and not from
/// the encoder: it takes the level changes a logic analyser sees on SER (line 0), SRCLK
/// (line 1), RCLK (line 2) and, when wired, OE (line 3), and keeps each register's
/// outputs.
///
/// On SRCLK rising every register shifts by one, QA taking its serial input and QH
/// leaving on the serial output (QH'): register 0, whose SER is probed, takes SER and
/// each next register the QH of the one before it. On RCLK rising every register's
/// stages are copied to its outputs. OE is active low: outputs are enabled while it is
/// low (always, when it is not wired).
public struct ShiftRegisterChainDecoder: LineDecoder {
  /// Each register's latched outputs, index 0 the one whose SER is probed; bit 0 = QA
  /// ... bit 7 = QH. 0 at power-up.
  public private(set) var outputs: [UInt8]
  /// How many times RCLK rose.
  public private(set) var latches = 0
  /// How many times SRCLK rose.
  public private(set) var shiftClocks = 0
  /// The level of OE; nil when it is not wired.
  public private(set) var outputEnable: Bool?
  /// What broke the protocol, in order.
  public private(set) var violations: [String] = []

  /// Each register's shift stages, bit 0 = QA.
  private var stages: [UInt8]
  private var data: Bool
  private var shiftClock: Bool
  private var latchClock: Bool

  /// A chain of `registerCount` registers at power-up, on lines at the given levels when
  /// the capture starts (SER and clocks low by default).
  ///
  /// - Parameter outputEnable: The level of OE when it is wired, nil when it is not.
  public init(
    registerCount: Int, outputEnable: Bool?, data: Bool = false, shiftClock: Bool = false,
    latchClock: Bool = false
  ) {
    outputs = Array(repeating: 0, count: registerCount)
    stages = Array(repeating: 0, count: registerCount)
    self.outputEnable = outputEnable
    self.data = data
    self.shiftClock = shiftClock
    self.latchClock = latchClock
  }

  /// Whether the outputs drive anything: OE low, or not wired.
  public var outputsEnabled: Bool { outputEnable != true }

  /// Takes one level change: line 0 SER, 1 SRCLK, 2 RCLK, 3 OE.
  public mutating func receive(line: Int, high: Bool) {
    switch line {
    case 0:
      data = high
    case 1:
      guard high != shiftClock else { return }
      shiftClock = high
      if high {
        shift()
      }
    case 2:
      guard high != latchClock else { return }
      latchClock = high
      if high {
        outputs = stages
        latches += 1
      }
    case 3 where outputEnable != nil:
      outputEnable = high
    default:
      violations.append("a change on line \(line), which the chain does not have")
    }
  }

  private mutating func shift() {
    for register in stages.indices.reversed() {
      let incoming = register == 0 ? (data ? 1 : 0) : stages[register - 1] >> 7
      stages[register] = stages[register] << 1 | incoming
    }
    shiftClocks += 1
  }
}
