import ScoreboardSettings

/// The options of a TM1638 "LED&KEY" board: up to 8 digits, 8 LEDs and 8 buttons on three
/// GPIO lines, STB, CLK and DIO (`driver = tm1638`).
///
/// Its LEDs are the display's indicator lights (`led-1` ... `led-8`, in
/// `DisplayConfiguration.indicators`); its buttons are a keypad named like the display
/// when the section names a keymap (`keypad`).
public struct TM1638DisplayOptions: Hashable, Sendable {
  /// The most digits a TM1638 drives: it has 8 grids.
  public static let maximumDigits = 8

  /// The STB line (`stb`).
  public var strobe: GPIOLine
  /// The CLK line (`clk`).
  public var clock: GPIOLine
  /// The DIO line (`dio`), open drain: the board pulls it up.
  public var data: GPIOLine
  /// How long each half of a clock period lasts (`bit-delay`), 1us to 10ms.
  public var bitDelay: Duration
  /// The grid of each cell, left to right (`grid-order`): a permutation of the grids
  /// `0..<digits`. The LED&KEY board is `0 1 2 3 4 5 6 7`.
  public var gridOrder: [Int]
  /// How the buttons are read as a keypad; nil when the section names no keymap, and
  /// then they are not read at all.
  public var keypad: TM1638KeypadOptions?

  /// Creates TM1638 board options; `gridOrder` has one grid per digit.
  public init(
    strobe: GPIOLine, clock: GPIOLine, data: GPIOLine, bitDelay: Duration = .microseconds(2),
    gridOrder: [Int], keypad: TM1638KeypadOptions? = nil
  ) {
    self.strobe = strobe
    self.clock = clock
    self.data = data
    self.bitDelay = bitDelay
    self.gridOrder = gridOrder
    self.keypad = keypad
  }
}
