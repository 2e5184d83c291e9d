/// Words joined for a message: `a`, `a or b`, `a, b or c`.
enum Listing {
  /// How many items a list shows before it says how many more there are.
  static let shownItems = 24

  /// `items` joined with commas and a final `conjunction`; past `shownItems` items, the
  /// first ones and how many others there are (`a, b, ... t or 5 others`), so that a
  /// message stays short whatever the file holds. Only the items shown are read from a
  /// lazy collection.
  static func joined(
    _ items: some BidirectionalCollection<String>, conjunction: String = "or"
  ) -> String {
    guard items.count <= shownItems + 1 else {
      return items.prefix(shownItems).joined(separator: ", ")
        + " \(conjunction) \(items.count - shownItems) others"
    }
    guard let last = items.last else { return "" }
    guard items.count > 1 else { return last }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
  }

  /// `cell 3` or `cells 3 to 5`, numbered from 1.
  static func cells(_ cells: ClosedRange<Int>) -> String {
    cells.count == 1
      ? "cell \(cells.lowerBound)" : "cells \(cells.lowerBound) to \(cells.upperBound)"
  }

  /// `1 cell`, `2 cells`.
  static func count(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }

  /// What a message says was found: `"x"`, or `nothing` for an empty value.
  static func found(_ text: String) -> String {
    text.isEmpty ? "nothing" : "\"\(text)\""
  }
}
