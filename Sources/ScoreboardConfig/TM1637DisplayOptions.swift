import ScoreboardSettings

/// The options of a TM1637 module: up to 6 digits on two GPIO lines, CLK and DIO
/// (`driver = tm1637`).
public struct TM1637DisplayOptions: Hashable, Sendable {
  /// The most digits a TM1637 drives: it has 6 grids.
  public static let maximumDigits = 6

  /// The CLK line (`clk`).
  public var clock: GPIOLine
  /// The DIO line (`dio`), open drain: the module pulls it up.
  public var data: GPIOLine
  /// How long each half of a clock period lasts (`bit-delay`), 1us to 10ms.
  public var bitDelay: Duration
  /// Whether bit 7 of grid 1 lights the colon of a clock module rather than the decimal
  /// point of cell 2 (`colon`). Clock modules wire only the colon, there.
  public var colon: Bool
  /// The grid of each cell, left to right (`grid-order`): a permutation of the grids
  /// `0..<digits`. Most modules are `0 1 2 3`; 6-digit ones often `2 1 0 5 4 3`.
  public var gridOrder: [Int]

  /// Creates TM1637 display options; `gridOrder` has one grid per digit.
  public init(
    clock: GPIOLine, data: GPIOLine, bitDelay: Duration = .microseconds(100), colon: Bool = false,
    gridOrder: [Int]
  ) {
    self.clock = clock
    self.data = data
    self.bitDelay = bitDelay
    self.colon = colon
    self.gridOrder = gridOrder
  }
}
