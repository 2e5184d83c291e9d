/// Which end of its cells a display chip's first digit drives, as the MAX7219's DIG0
/// (`digit-order`).
public enum DigitOrder: String, Hashable, Sendable, CaseIterable {
  /// The first digit is the rightmost cell, as on the common 8-digit MAX7219 modules.
  case rightToLeft = "right-to-left"
  /// The first digit is the leftmost cell.
  case leftToRight = "left-to-right"
}
