import ScoreboardSettings

/// The options of a chain of 8-bit shift registers, one per cell (74HC595, or power
/// registers for large digits: TPIC6B595, TPIC6C596), on GPIO lines SER, SRCLK, RCLK and
/// optionally OE (`driver = shift-register`).
public struct ShiftRegisterDisplayOptions: Hashable, Sendable {
  /// The SER line (`ser`), the serial data into the first register.
  public var data: GPIOLine
  /// The SRCLK line (`srclk`), the shift clock.
  public var clock: GPIOLine
  /// The RCLK line (`rclk`), the latch that shows what was shifted in.
  public var latch: GPIOLine
  /// The OE line (`oe`), active low, which blanks the outputs; nil when it is wired to
  /// ground.
  public var outputEnable: GPIOLine?
  /// The segment on each output, QA to QH (DRAIN0 to DRAIN7 on TPIC registers)
  /// (`segments`): each segment once.
  public var segmentOrder: [SegmentName]
  /// Which cell the register next to the Pi drives (`first-register`).
  public var firstRegister: ChainOrder
  /// Whether a lit segment is a low output, for common-anode wiring (`invert`).
  public var invert: Bool

  /// Creates shift register display options; the default segment order puts `a` on QA
  /// through `dp` on QH.
  public init(
    data: GPIOLine, clock: GPIOLine, latch: GPIOLine, outputEnable: GPIOLine? = nil,
    segmentOrder: [SegmentName] = SegmentName.allCases, firstRegister: ChainOrder = .rightmostFirst,
    invert: Bool = false
  ) {
    self.data = data
    self.clock = clock
    self.latch = latch
    self.outputEnable = outputEnable
    self.segmentOrder = segmentOrder
    self.firstRegister = firstRegister
    self.invert = invert
  }
}
