import ScoreboardCore

/// Turns frames into one line of text each, for output that is not a terminal (a log,
/// a pipe read by a script): `main: 12  7 3`, or with a clock `main: 12:34 3`.
public struct PlainFrameRenderer: Sendable {
  /// The display's name, which starts each line.
  public let name: String
  /// The fields on the display, left to right.
  public let fields: [FieldSpec]

  /// A renderer for the display `name` showing `fields`.
  public init(name: String, fields: [FieldSpec]) {
    self.name = name
    self.fields = fields.sorted { $0.position < $1.position }
  }

  /// The line for `frame`, without a newline: the name, a colon, then each field's cells
  /// as the font reads them (a blank cell is a space, a lit point a `.` after its cell,
  /// a colon a `:` after its cell in place of the point: `12:34`, ` 53.8`), fields
  /// separated by one space; `main: blank` for a blanked frame. A display without fields
  /// shows all its cells.
  public func line(for frame: Frame) -> String {
    guard !frame.isBlank else { return "\(name): blank" }
    guard !fields.isEmpty else {
      return "\(name): " + Self.text(of: frame.cells.indices, in: frame)
    }
    let texts = fields.map { field in
      Self.text(of: field.cells.clamped(to: frame.cells.indices), in: frame)
    }
    return "\(name): " + texts.joined(separator: " ")
  }

  /// The text of `cells` of `frame`: each cell's character (`?` when the font has none),
  /// then `:` when a colon follows it, or `.` when its point is lit.
  private static func text(of cells: Range<Int>, in frame: Frame) -> String {
    var text = ""
    for index in cells {
      let cell = frame.cells[index]
      text.append(SegmentFont.character(for: cell) ?? "?")
      if frame.colons?.contains(index) ?? false {
        text.append(":")
      } else if cell.contains(.dp) {
        text.append(".")
      }
    }
    return text
  }
}
