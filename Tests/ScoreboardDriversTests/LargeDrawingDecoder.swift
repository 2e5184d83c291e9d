import ScoreboardCore

/// Reads seven-segment cells back from a screen showing a large terminal drawing, from
/// the geometry the drawing documents: cell `n` starts at column 3 + 8n (two columns of
/// margin), the digits take rows 3-9 of the drawing; segment A is `━` in columns 1-4 of
/// the first digit row, F and B `┃` in columns 0 and 5 of the second and third, G `━` in
/// the fourth, E and C `┃` in the fifth and sixth, D `━` and the point `●` (column 6)
/// in the seventh. A colon after a cell is a `●` in column 6 of the third and fifth digit
/// rows, and then the cell's point is not drawn.
struct LargeDrawingDecoder {
  /// Where a segment is drawn: digit row, columns within the cell, character.
  static let strokes: [(segment: Segments, row: Int, columns: [Int], character: Character)] = [
    (.a, 0, [1, 2, 3, 4], "━"),
    (.f, 1, [0], "┃"), (.f, 2, [0], "┃"),
    (.b, 1, [5], "┃"), (.b, 2, [5], "┃"),
    (.g, 3, [1, 2, 3, 4], "━"),
    (.e, 4, [0], "┃"), (.e, 5, [0], "┃"),
    (.c, 4, [5], "┃"), (.c, 5, [5], "┃"),
    (.d, 6, [1, 2, 3, 4], "━"),
    (.dp, 6, [6], "●"),
  ]

  /// The digit rows of a colon's dots, in the column of the point of the cell before it.
  static let colonRows = [2, 4]

  /// Why a screen does not show a valid drawing.
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  /// A segment as drawn: lit in a red, unlit in a grey.
  enum State: Equatable {
    case lit(color: Int)
    case unlit
  }

  let screen: TerminalScreen
  /// The screen row of the drawing's first line.
  var firstRow = 1

  static func column(cell: Int, offset: Int) -> Int {
    3 + cell * 8 + offset
  }

  /// The state of every stroke position of `segment` in `cell`; throws when a position
  /// lacks the segment's character or has neither a red nor a grey colour.
  func states(of segment: Segments, cell: Int) throws -> [State] {
    var states: [State] = []
    for stroke in Self.strokes where stroke.segment == segment {
      for offset in stroke.columns {
        states.append(
          try state(
            at: stroke.row, column: Self.column(cell: cell, offset: offset),
            character: stroke.character))
      }
    }
    return states
  }

  /// The state of the `character` at digit row `digitRow`, screen column `column`; throws
  /// when another character is there or its colour is neither a red nor a grey.
  func state(at digitRow: Int, column: Int, character: Character) throws -> State {
    let row = firstRow + 2 + digitRow
    let drawn = screen.cell(row: row, column: column)
    guard drawn.character == character else {
      throw Malformed(
        description: "row \(row) column \(column): '\(drawn.character)', expected '\(character)'")
    }
    switch drawn.color {
    case let color? where Self.reds.contains(color): return .lit(color: color)
    case let color? where (232...255).contains(color): return .unlit
    default:
      throw Malformed(
        description: "row \(row) column \(column): colour \(String(describing: drawn.color))")
    }
  }

  /// The colon drawn after `cell`, nil when there is none; throws when only one of its
  /// dots is drawn, its dots differ, or the cell's point is drawn as well.
  func colon(after cell: Int) throws -> State? {
    let column = Self.column(cell: cell, offset: 6)
    let dots = Self.colonRows.map { screen.cell(row: firstRow + 2 + $0, column: column) }
    guard dots.contains(where: { $0.character != " " }) else { return nil }
    let states = try Self.colonRows.map { try state(at: $0, column: column, character: "●") }
    guard states.allSatisfy({ $0 == states[0] }) else {
      throw Malformed(description: "the colon after cell \(cell) is partly lit")
    }
    let point = screen.cell(row: firstRow + 2 + 6, column: column)
    guard point.character == " " else {
      throw Malformed(description: "cell \(cell) has a colon and a point")
    }
    return states[0]
  }

  /// The cells among the first `cellCount` that a lit colon follows.
  func litColons(cellCount: Int) throws -> [Int] {
    try (0..<cellCount).filter { cell in
      guard case .lit = try colon(after: cell) else { return false }
      return true
    }
  }

  /// The lit segments of `cell` (no point where a colon is drawn instead); throws when a
  /// segment is drawn inconsistently.
  func segments(cell: Int) throws -> Segments {
    var lit: Segments = []
    let hasColon = try colon(after: cell) != nil
    for segment in [Segments.a, .b, .c, .d, .e, .f, .g, .dp] where !(hasColon && segment == .dp) {
      let states = try self.states(of: segment, cell: cell)
      if states.allSatisfy({ $0 != .unlit }) {
        lit.insert(segment)
      } else if !states.allSatisfy({ $0 == .unlit }) {
        throw Malformed(description: "cell \(cell) segment \(segment) partly lit")
      }
    }
    return lit
  }

  func segments(cellCount: Int) throws -> [Segments] {
    try (0..<cellCount).map { try segments(cell: $0) }
  }

  /// The palette's pure reds, from the darkest to the brightest.
  static let reds = [52, 88, 124, 160, 196]
}
