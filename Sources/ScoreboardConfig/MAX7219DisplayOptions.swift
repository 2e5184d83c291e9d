import ScoreboardSettings

/// The options of a chain of MAX7219 (or MAX7221) chips of 8 digits each, on three GPIO
/// lines: DIN, CLK and LOAD (`driver = max7219`).
public struct MAX7219DisplayOptions: Hashable, Sendable {
  /// The digits one chip drives.
  public static let digitsPerChip = 8
  /// The most chips a chain may have.
  public static let maximumChips = 8

  /// The DIN line (`din`), into the first chip.
  public var data: GPIOLine
  /// The CLK line (`clk`).
  public var clock: GPIOLine
  /// The LOAD line (`load`), labelled CS on most modules.
  public var load: GPIOLine
  /// The chips in the chain, 1 to 8 (`chips`); the display's digits fit in them.
  public var chips: Int
  /// Which end of its cells each chip's DIG0 drives (`digit-order`).
  public var digitOrder: DigitOrder
  /// How often the chips are set up again although nothing failed (`reinit-interval`),
  /// since a chip that lost power comes back blank without telling; nil never does.
  public var reinitializeInterval: Duration?

  /// Creates MAX7219 display options.
  public init(
    data: GPIOLine, clock: GPIOLine, load: GPIOLine, chips: Int,
    digitOrder: DigitOrder = .rightToLeft, reinitializeInterval: Duration? = .seconds(60)
  ) {
    self.data = data
    self.clock = clock
    self.load = load
    self.chips = chips
    self.digitOrder = digitOrder
    self.reinitializeInterval = reinitializeInterval
  }
}
