/// Text laid out in the cells of a segment font: a character per cell, a `.` lighting the
/// point of the cell before it (or taking a cell of its own where that cell's point is
/// lit already, or at the start).
enum GlyphRow {
  /// The cells of `text`, each character's from `glyph`.
  ///
  /// - Throws: `UnshowableText` naming the first character `glyph` has no cell for.
  static func cells<Cell: OptionSet>(
    for text: String, point: Cell, segmentCount: Int, glyph: (Character) -> Cell?
  ) throws(UnshowableText) -> [Cell] where Cell.Element == Cell {
    var cells: [Cell] = []
    for character in text {
      if character == ".", let last = cells.indices.last, !cells[last].contains(point) {
        cells[last].insert(point)
      } else if character == "." {
        cells.append(point)
      } else if let segments = glyph(character) {
        cells.append(segments)
      } else {
        throw UnshowableText(text: text, character: character, segmentCount: segmentCount)
      }
    }
    return cells
  }
}
