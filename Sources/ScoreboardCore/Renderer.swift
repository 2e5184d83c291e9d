/// Turns the scoreboard's state at a moment into one `Frame` per display.
public enum Renderer {
  /// The frames of every display, in `spec.displays` order.
  public static func frames(of board: Scoreboard, at now: Instant) -> [Frame] {
    board.spec.displays.map { frame(of: board, display: $0, at: now) }
  }

  /// The frame of one display; its `fieldTexts` only when `withTexts` (a display that
  /// shows segments has no use for them).
  public static func frame(
    of board: Scoreboard, display: DisplayLayout, at now: Instant, withTexts: Bool = true
  ) -> Frame {
    var cells = Array(repeating: Segments.blank, count: display.cellCount)
    var texts: [String: String] = [:]
    let fields = board.spec.fields
    for index in fields.indices where fields[index].display == display.name {
      // The common case, a number showing its value, is drawn in place.
      if !withTexts, case .number(let format) = fields[index].kind,
        showsValue(of: board, field: index, at: now)
      {
        draw(
          board.values[index], width: fields[index].width, placeholder: format.placeholder,
          into: &cells, at: fields[index].position)
        continue
      }
      let field = fields[index]
      let shown = fieldCells(of: board, field: index, at: now)
      for (offset, cell) in shown.enumerated() {
        let position = field.position + offset
        if cells.indices.contains(position) {
          cells[position] = cell
        }
      }
      if withTexts {
        texts[field.name] = fieldText(of: board, field: index, cells: shown)
      }
    }
    return Frame(
      cells: cells, brightness: board.brightness, isBlank: board.isBlanked, fieldTexts: texts)
  }

  /// The text a field's cells stand for: what the font reads, except that a list value
  /// shown whole reads as written (`OT`, not `0t`).
  static func fieldText(of board: Scoreboard, field index: Int, cells: [Segments]) -> String {
    let field = board.spec.fields[index]
    if case .list = field.kind {
      let shown = board.session?.field == index ? board.session!.pendingValue : board.values[index]
      if cells == valueCells(field, value: shown) {
        let text = field.text(of: shown)
        return String(repeating: " ", count: max(field.width - text.count, 0)) + text
      }
    }
    return SegmentFont.text(for: cells)
  }

  /// Whether a field shows its committed value at `now`: it is not being edited, not
  /// flashing a refusal, and not in the dark phase of an armed reset.
  static func showsValue(of board: Scoreboard, field index: Int, at now: Instant) -> Bool {
    if let refusal = board.refusal, refusal.field == index, now < refusal.until {
      return false
    }
    if let session = board.session, session.field == index {
      return false
    }
    if let armed = board.resetArmedAt, !board.blinkIsLit(at: now, anchor: armed) {
      return false
    }
    return true
  }

  /// The cells of one field at `now`: its value, or its entry with the cursor while it
  /// is being edited, dark while a refused key flashes it.
  public static func fieldCells(of board: Scoreboard, field index: Int, at now: Instant)
    -> [Segments]
  {
    let field = board.spec.fields[index]
    var dark: [Segments] { Array(repeating: .blank, count: field.width) }
    if let refusal = board.refusal, refusal.field == index, now < refusal.until {
      return dark
    }
    if let session = board.session, session.field == index {
      var cells = entryCells(session, field: field)
      let lit = board.blinkIsLit(at: now, anchor: session.lastActivity)
      if case .list = session.entry {
        return board.spec.cursor == .blink && !lit ? dark : cells
      }
      let cursor = session.cursorCell(width: field.width)
      switch board.spec.cursor {
      case .blink:
        cells[cursor] = lit ? (cells[cursor] == .blank ? .d : cells[cursor]) : .blank
      case .dp:
        if lit {
          cells[cursor].insert(.dp)
        }
      case .none:
        break
      }
      return cells
    }
    if let armed = board.resetArmedAt, !board.blinkIsLit(at: now, anchor: armed) {
      return dark
    }
    return valueCells(field, value: board.values[index])
  }

  /// The cells showing a committed value: numbers right-aligned after placeholder
  /// cells, list values right-aligned after blank cells.
  public static func valueCells(_ field: FieldSpec, value: Int) -> [Segments] {
    switch field.kind {
    case .number(let format):
      var cells = Array(repeating: Segments.blank, count: field.width)
      draw(value, width: field.width, placeholder: format.placeholder, into: &cells, at: 0)
      return cells
    case .list:
      let cells = (try? SegmentFont.cells(for: field.text(of: value))) ?? []
      return Array(repeating: .blank, count: max(field.width - cells.count, 0))
        + cells.suffix(field.width)
    }
  }

  /// Draws a number's last `width` digits right-aligned into the `width` cells of `cells`
  /// from `start`, the cells before them as `placeholder`; cells outside `cells` are left
  /// out.
  static func draw(
    _ value: Int, width: Int, placeholder: NumberFormat.Placeholder,
    into cells: inout [Segments], at start: Int
  ) {
    var rest = value
    var digitsLeft = true
    for position in (start..<(start + width)).reversed() {
      let segments = digitsLeft ? SegmentFont.digit(rest % 10) : placeholder.segments
      rest /= 10
      digitsLeft = rest > 0
      if cells.indices.contains(position) {
        cells[position] = segments
      }
    }
  }

  /// The cells showing an entry being typed: typed digits as they are (leading zeros
  /// included), cells not yet typed as the placeholder.
  static func entryCells(_ session: EditSession, field: FieldSpec) -> [Segments] {
    guard case .number(let format) = field.kind else {
      return valueCells(field, value: session.pendingValue)
    }
    switch session.entry {
    case .overwrite(let cells, _):
      return numberCells(cells, width: field.width, placeholder: format.placeholder)
    case .shift(let digits, _):
      return numberCells(
        digits.map { Optional($0) }, width: field.width, placeholder: format.placeholder)
    case .list(let index):
      return valueCells(field, value: index)
    }
  }

  private static func numberCells(
    _ digits: [Int?], width: Int, placeholder: NumberFormat.Placeholder
  )
    -> [Segments]
  {
    let cells = digits.suffix(width).map { digit in
      digit.map(SegmentFont.digit) ?? placeholder.segments
    }
    return Array(repeating: placeholder.segments, count: width - cells.count) + cells
  }
}
