/// Which end of a row of cells a daisy chain of driver chips starts at: the chip whose
/// data input is wired to the Raspberry Pi holds the leftmost or the rightmost cells,
/// and the next chips go on from there (`first-register`).
public enum ChainOrder: String, Hashable, Sendable, CaseIterable {
  /// The chip wired to the Pi holds the rightmost cells; the chain runs right to left.
  case rightmostFirst = "rightmost"
  /// The chip wired to the Pi holds the leftmost cells; the chain runs left to right.
  case leftmostFirst = "leftmost"
}
