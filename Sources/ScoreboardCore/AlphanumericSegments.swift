/// The lit segments of one fourteen-segment (alphanumeric) cell.
///
/// The bit order is the one of Adafruit's HT16K33 alphanumeric backpacks, which keep it
/// as a 16-bit word per digit: bit 0 = A (top), 1 = B (top right), 2 = C (bottom right),
/// 3 = D (bottom), 4 = E (bottom left), 5 = F (top left), 6 = G1 (middle left), 7 = G2
/// (middle right), then the inner segments: 8 = H (upper left diagonal), 9 = J (upper
/// vertical), 10 = K (upper right diagonal), 11 = L (lower right diagonal), 12 = M (lower
/// vertical), 13 = N (lower left diagonal), and 14 = DP.
public struct AlphanumericSegments: OptionSet, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt16

  public init(rawValue: UInt16) {
    self.rawValue = rawValue
  }

  public static let a = AlphanumericSegments(rawValue: 1 << 0)
  public static let b = AlphanumericSegments(rawValue: 1 << 1)
  public static let c = AlphanumericSegments(rawValue: 1 << 2)
  public static let d = AlphanumericSegments(rawValue: 1 << 3)
  public static let e = AlphanumericSegments(rawValue: 1 << 4)
  public static let f = AlphanumericSegments(rawValue: 1 << 5)
  public static let g1 = AlphanumericSegments(rawValue: 1 << 6)
  public static let g2 = AlphanumericSegments(rawValue: 1 << 7)
  public static let h = AlphanumericSegments(rawValue: 1 << 8)
  public static let j = AlphanumericSegments(rawValue: 1 << 9)
  public static let k = AlphanumericSegments(rawValue: 1 << 10)
  public static let l = AlphanumericSegments(rawValue: 1 << 11)
  public static let m = AlphanumericSegments(rawValue: 1 << 12)
  public static let n = AlphanumericSegments(rawValue: 1 << 13)
  /// The decimal point.
  public static let dp = AlphanumericSegments(rawValue: 1 << 14)

  public var description: String {
    let hex = String(rawValue, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
  }
}
