import ScoreboardCore

/// Turns frames into one line of text each, for output that is not a terminal (a log,
/// a pipe read by a script): `main: 12  7 3`.
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
  /// as the font reads them (a blank cell is a space), fields separated by one space;
  /// `main: blank` for a blanked frame. A display without fields shows all its cells.
  public func line(for frame: Frame) -> String {
    guard !frame.isBlank else { return "\(name): blank" }
    guard !fields.isEmpty else { return "\(name): \(frame.text)" }
    let texts = fields.map { field in
      let cells = field.cells.clamped(to: frame.cells.indices)
      return SegmentFont.text(for: Array(frame.cells[cells]))
    }
    return "\(name): " + texts.joined(separator: " ")
  }
}
