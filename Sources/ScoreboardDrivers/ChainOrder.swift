/// Which end of a row of cells a daisy chain of driver chips starts at: the chip whose
/// data input is wired to the Raspberry Pi holds the leftmost or the rightmost cells,
/// and the next chips go on from there.
public enum ChainOrder: Hashable, Sendable {
  /// The chip wired to the Pi holds the leftmost cells.
  case leftmostFirst
  /// The chip wired to the Pi holds the rightmost cells.
  case rightmostFirst
}
