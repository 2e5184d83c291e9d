import ScoreboardCore

/// One segment of a seven-segment cell, as `segments =` names it: `a` (top) clockwise to
/// `f` (top left), `g` (middle) and `dp` (the decimal point).
public enum SegmentName: String, Hashable, Sendable, CaseIterable {
  case a
  case b
  case c
  case d
  case e
  case f
  case g
  case dp

  /// The segment's bit in `Segments`.
  public var segment: Segments {
    switch self {
    case .a: .a
    case .b: .b
    case .c: .c
    case .d: .d
    case .e: .e
    case .f: .f
    case .g: .g
    case .dp: .dp
    }
  }
}
