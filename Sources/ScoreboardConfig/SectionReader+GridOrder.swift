extension SectionReader {
  /// `grid-order`, each grid of `digits` once; the grids in order when it is absent or
  /// wrong (which is reported).
  mutating func gridOrder(digits: Int) -> [Int] {
    let grids = Array(0..<digits)
    guard let value = entry("grid-order")?.value else { return grids }
    let words = value.words()
    let order = words.compactMap { Int($0) }
    guard order.count == words.count, order.sorted() == grids else {
      report(
        "expected each grid from 0 to \(digits - 1) once, the grid of each cell left to right "
          + "(digits = \(digits)), found \(Listing.found(value))", key: "grid-order")
      return grids
    }
    return order
  }
}
