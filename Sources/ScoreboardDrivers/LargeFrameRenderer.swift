import ScoreboardCore

/// Draws frames as large seven-segment digits on a colour terminal, with ANSI escapes.
///
/// The drawing is `height` rows from `firstRow`, indented by two columns: the display's
/// name, the field labels centred over their cells, seven rows of digits and the footer.
/// Every segment is drawn, lit ones in red (brighter with the frame's brightness) and
/// unlit ones in dim grey, so the digits look like a real LED display. Each cell is 8
/// columns wide; within a cell, rows 0, 3 and 6 of the digits hold segments A, G and D as
/// `━━━━` in columns 1-4; rows 1-2 hold F and B as `┃` in columns 0 and 5, rows 4-5 E
/// and C; the decimal point is a `●` in row 6, column 6. A colon after a cell (a clock's
/// `12:34`) is drawn in its place, in the gap to the next cell: a `●` in rows 2 and 4 of
/// column 6, lit unless the frame is blank, and that cell's point is not drawn.
public struct LargeFrameRenderer: Sendable {
  /// The rows a drawing takes.
  public static let height = 10
  private static let cellWidth = 8
  private static let leftMargin = 2
  private static let digitRowCount = 7

  /// The display's name, drawn above the digits.
  public let name: String
  /// The number of cells drawn.
  public let cellCount: Int
  /// The fields whose labels are drawn over their cells.
  public let fields: [FieldSpec]
  /// The text under the digits, if any.
  public let footer: String?
  /// The terminal row of the drawing's top line, from 1.
  public let firstRow: Int

  /// A renderer for the display `name` of `cellCount` cells, labelling `fields`.
  public init(
    name: String, cellCount: Int, fields: [FieldSpec], footer: String?, firstRow: Int = 1
  ) {
    self.name = name
    self.cellCount = cellCount
    self.fields = fields
    self.footer = footer
    self.firstRow = firstRow
  }

  /// The `height` lines that draw `frame`, with colour escapes and without cursor
  /// movement. A blanked frame draws every segment unlit.
  public func lines(for frame: Frame) -> [String] {
    let litColor = Self.litColor(brightness: frame.brightness)
    var digitLines = Array(repeating: Canvas(), count: Self.digitRowCount)
    for index in 0..<cellCount {
      let cell = frame.cells.indices.contains(index) && !frame.isBlank ? frame.cells[index] : []
      let left = Self.leftMargin + index * Self.cellWidth
      let hasColon = frame.colons?.contains(index) ?? false
      for (segment, row, columns, character) in Self.strokes where !(hasColon && segment == .dp) {
        let color = cell.contains(segment) ? litColor : Self.unlitColor
        for column in columns {
          digitLines[row].put(character, at: left + column, color: color)
        }
      }
      if hasColon {
        let color = frame.isBlank ? Self.unlitColor : litColor
        for row in Self.colonRows {
          digitLines[row].put("●", at: left + Self.colonColumn, color: color)
        }
      }
    }

    var labels = Canvas()
    for field in fields {
      let spanWidth = field.width * Self.cellWidth - 1
      let label = String(field.label.prefix(spanWidth))
      let start = Self.leftMargin + field.position * Self.cellWidth + (spanWidth - label.count) / 2
      for (offset, character) in label.enumerated() {
        labels.put(character, at: start + offset, color: nil)
      }
    }

    let margin = String(repeating: " ", count: Self.leftMargin)
    let title = margin + "\u{1B}[1m" + name + "\u{1B}[0m"
    let footerLine = footer.map { margin + $0 } ?? ""
    return [title, labels.text] + digitLines.map(\.text) + [footerLine]
  }

  /// The output that turns a terminal showing the lines `previous` into `lines`: each
  /// line that differs is rewritten in place at its row, with line wrapping off while
  /// drawing. With no previous lines, the cursor is hidden, every line is drawn, the
  /// screen below the drawing is cleared and the cursor waits below the drawing (where
  /// log lines then appear); later updates put the cursor back where it was. Empty when
  /// nothing differs.
  public func redraw(from previous: [String]?, to lines: [String]) -> String {
    var output = ""
    for (index, line) in lines.enumerated() where previous?[index] != line {
      output += "\u{1B}[\(firstRow + index);1H" + line + "\u{1B}[K"
    }
    guard !output.isEmpty else { return "" }
    if previous == nil {
      let below = "\u{1B}[\(firstRow + Self.height);1H"
      return "\u{1B}[?25l\u{1B}[?7l" + output + below + "\u{1B}[J\u{1B}[?7h"
    }
    // ESC 7 and ESC 8 save and restore the cursor position and colours.
    return "\u{1B}7\u{1B}[?7l" + output + "\u{1B}[?7h\u{1B}8"
  }

  /// The output that leaves the terminal usable after the last drawing: the cursor below
  /// the drawing and visible again.
  public var ending: String {
    "\u{1B}[0m\u{1B}[\(firstRow + Self.height);1H\u{1B}[?25h"
  }

  /// The 256-colour palette index of lit segments: four steps of red, from 88 (dark) at
  /// brightness 0-3 to 196 (bright) at 12-15.
  public static func litColor(brightness: Int) -> Int {
    let reds = [88, 124, 160, 196]
    return reds[min(max(brightness, 0), Action.maximumBrightness) / 4]
  }

  /// The 256-colour palette index of unlit segments: a dim grey.
  public static let unlitColor = 237

  /// Where each segment is drawn: its digit row, its columns within the cell and the
  /// character.
  private static let strokes: [(Segments, Int, ClosedRange<Int>, Character)] = [
    (.a, 0, 1...4, "━"),
    (.f, 1, 0...0, "┃"), (.b, 1, 5...5, "┃"),
    (.f, 2, 0...0, "┃"), (.b, 2, 5...5, "┃"),
    (.g, 3, 1...4, "━"),
    (.e, 4, 0...0, "┃"), (.c, 4, 5...5, "┃"),
    (.e, 5, 0...0, "┃"), (.c, 5, 5...5, "┃"),
    (.d, 6, 1...4, "━"), (.dp, 6, 6...6, "●"),
  ]

  /// The digit rows of a colon's two dots.
  private static let colonRows = [2, 4]
  /// The column of a colon within the cell it follows, where its point would be.
  private static let colonColumn = 6
}

/// One line of a drawing: characters at columns, each with an optional 256-colour
/// foreground.
private struct Canvas {
  private var characters: [(character: Character, color: Int?)] = []

  mutating func put(_ character: Character, at column: Int, color: Int?) {
    while characters.count <= column {
      characters.append((" ", nil))
    }
    characters[column] = (character, color)
  }

  /// The line with a colour escape wherever the colour changes, ending in the default
  /// colour.
  var text: String {
    var text = ""
    var currentColor: Int?
    for (character, color) in characters {
      if character != " ", color != currentColor {
        text += color.map { "\u{1B}[38;5;\($0)m" } ?? "\u{1B}[39m"
        currentColor = color
      }
      text.append(character)
    }
    return currentColor == nil ? text : text + "\u{1B}[0m"
  }
}
