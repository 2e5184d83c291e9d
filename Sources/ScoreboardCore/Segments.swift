/// The lit segments of one seven-segment cell.
///
/// The bit order is the canonical one of the Linux kernel's `map_to_7segment.h`,
/// TM1637 modules and the SparkFun Serial 7-Segment raw commands:
/// bit 0 = A (top), 1 = B (top right), 2 = C (bottom right), 3 = D (bottom),
/// 4 = E (bottom left), 5 = F (top left), 6 = G (middle), 7 = DP.
public struct Segments: OptionSet, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt8

  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  public static let a = Segments(rawValue: 1 << 0)
  public static let b = Segments(rawValue: 1 << 1)
  public static let c = Segments(rawValue: 1 << 2)
  public static let d = Segments(rawValue: 1 << 3)
  public static let e = Segments(rawValue: 1 << 4)
  public static let f = Segments(rawValue: 1 << 5)
  public static let g = Segments(rawValue: 1 << 6)
  /// The decimal point.
  public static let dp = Segments(rawValue: 1 << 7)

  /// No segment lit.
  public static let blank: Segments = []

  /// The seven segments without the decimal point.
  public var withoutPoint: Segments {
    subtracting(.dp)
  }

  public var description: String {
    let hex = String(rawValue, radix: 16, uppercase: true)
    return hex.count == 1 ? "0x0" + hex : "0x" + hex
  }
}

extension [Segments] {
  /// `count` cells showing `segments`.
  ///
  /// Built by appending to storage reserved for them: `Array(repeating:count:)` asks the
  /// Swift runtime's metadata cache for the array's storage type on every call, some 300
  /// instructions for every frame drawn.
  public static func cells(_ segments: Segments, count: Int) -> [Segments] {
    var cells: [Segments] = []
    guard count > 0 else { return cells }
    cells.reserveCapacity(count)
    cells.append(contentsOf: repeatElement(segments, count: count))
    return cells
  }
}
