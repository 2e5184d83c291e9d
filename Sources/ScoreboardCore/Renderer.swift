/// Turns the scoreboard's state at a moment into one `Frame` per display.
public enum Renderer {
  /// The frame of one display; its `fieldTexts` only when `withTexts` (a display that
  /// shows segments has no use for them).
  public static func frame(
    of board: Scoreboard, display: DisplayLayout, at now: Instant, withTexts: Bool = true
  ) -> Frame {
    var cells = [Segments].cells(.blank, count: display.cellCount)
    var texts: [String: String] = [:]
    var colons: [Int]?
    let fields = board.spec.fields
    for index in fields.indices where fields[index].display == display.name {
      // A clock that takes over another's cells shows only while it runs, and then
      // instead of it.
      if board.isHidden(index) { continue }
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
      if case .penalties = field.kind {
        let shown = penaltyRendering(of: board, field: index, at: now)
        for (offset, cell) in shown.cells.enumerated()
        where cells.indices.contains(field.position + offset) {
          cells[field.position + offset] = cell
        }
        colons =
          (colons ?? [])
          + shown.colons.map { $0 + field.position }.filter {
            $0 < display.cellCount
          }
        if withTexts {
          texts[field.name] = text(for: shown.cells, colons: shown.colons)
        }
        continue
      }
      let shown = fieldRendering(of: board, field: index, at: now)
      for (offset, cell) in shown.cells.enumerated() {
        let position = field.position + offset
        if cells.indices.contains(position) {
          cells[position] = cell
        }
      }
      if field.isClock {
        colons = colons ?? []
        if let colon = shown.colon, field.position + colon < display.cellCount {
          colons!.append(field.position + colon)
        }
      }
      if withTexts {
        texts[field.name] = fieldText(of: board, field: index, shown: shown)
      }
    }
    var characters = display.isAlphanumeric ? cells.map(readCharacter) : nil
    for label in board.spec.labels where label.display == display.name {
      for (offset, glyph) in labelGlyphs(label.text).enumerated() {
        let position = label.position + offset
        guard cells.indices.contains(position) else { continue }
        cells[position] = glyph.point ? glyph.segments.union(.dp) : glyph.segments
        characters?[position] = glyph.character
      }
    }
    if display.isAlphanumeric {
      for index in fields.indices where fields[index].display == display.name {
        guard case .list = fields[index].kind else { continue }
        let field = fields[index]
        let written = shownListValue(of: board, field: index, at: now).map(field.text) ?? ""
        let shown = Array(written.suffix(field.width))
        for offset in 0..<field.width where cells.indices.contains(field.position + offset) {
          let fromEnd = field.width - offset
          characters?[field.position + offset] =
            fromEnd <= shown.count ? shown[shown.count - fromEnd] : " "
        }
      }
    }
    return Frame(
      cells: cells, brightness: board.brightness, isBlank: board.isBlanked, fieldTexts: texts,
      colons: colons?.sorted(), characters: characters,
      indicators: indicators(of: board, display: display, at: now))
  }

  /// The character a seven-segment pattern stands for on a cell that shows letters: what
  /// the seven-segment font reads (a digit, `-`, `_`), a space for a dark or unknown one.
  private static func readCharacter(_ cell: Segments) -> Character {
    SegmentFont.character(for: cell) ?? " "
  }

  /// The cells of a label's text: each character, its seven-segment shape (blank for a
  /// letter only fourteen segments have), and whether a `.` after it lights its point.
  static func labelGlyphs(_ text: String) -> [(
    character: Character, segments: Segments, point: Bool
  )] {
    var glyphs: [(character: Character, segments: Segments, point: Bool)] = []
    for character in text {
      if character == ".", let last = glyphs.indices.last, !glyphs[last].point {
        glyphs[last].point = true
      } else if character == "." {
        glyphs.append((" ", .blank, true))
      } else {
        glyphs.append((character, SegmentFont.segments(for: character) ?? .blank, false))
      }
    }
    return glyphs
  }

  /// The value a list field shows at `now`: the one being chosen while it is edited, the
  /// committed one otherwise; nil while it is dark (a refusal flash, the cursor's dark
  /// phase, an armed reset's).
  static func shownListValue(of board: Scoreboard, field index: Int, at now: Instant) -> Int? {
    if let refusal = board.refusal, refusal.field == index, now < refusal.until {
      return nil
    }
    if let session = board.session, session.field == index {
      let lit = board.blinkIsLit(at: now, anchor: session.lastActivity)
      return board.spec.cursor == .blink && !lit ? nil : session.pendingValue
    }
    if let armed = board.resetArmedAt, !board.blinkIsLit(at: now, anchor: armed) {
      return nil
    }
    return board.values[index]
  }

  /// The text cells stand for, as the font reads them, with a `:` for the decimal point
  /// of cell `colon`.
  static func text(for cells: [Segments], colon: Int?) -> String {
    text(for: cells, colons: colon.map { [$0] } ?? [])
  }

  /// The text cells stand for, with a `:` for the decimal point of each cell in `colons`.
  static func text(for cells: [Segments], colons: [Int]) -> String {
    var text = ""
    for (index, cell) in cells.enumerated() {
      text.append(SegmentFont.character(for: cell) ?? "?")
      if cell.contains(.dp) {
        text.append(colons.contains(index) ? ":" : ".")
      }
    }
    return text
  }

  /// The text a field's cells stand for: what the font reads (a clock's colon as `:`),
  /// except that a list value shown whole reads as written (`OT`, not `0t`).
  static func fieldText(
    of board: Scoreboard, field index: Int, shown: (cells: [Segments], colon: Int?)
  ) -> String {
    let field = board.spec.fields[index]
    let cells = shown.cells
    if case .list = field.kind {
      let value = board.session?.field == index ? board.session!.pendingValue : board.values[index]
      if cells == valueCells(field, value: value) {
        let written = field.text(of: value)
        return String(repeating: " ", count: max(field.width - written.count, 0)) + written
      }
    }
    return text(for: cells, colon: shown.colon)
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

  /// The cells of one field at `now`, and the cell of the field after which a colon is
  /// lit (a clock's `12:34`; that cell's decimal point is lit too).
  public static func fieldRendering(of board: Scoreboard, field index: Int, at now: Instant)
    -> (cells: [Segments], colon: Int?)
  {
    let field = board.spec.fields[index]
    var dark: (cells: [Segments], colon: Int?) {
      ([Segments].cells(.blank, count: field.width), nil)
    }
    if let refusal = board.refusal, refusal.field == index, now < refusal.until {
      return dark
    }
    if let session = board.session, session.field == index {
      var (cells, colon) = entryRendering(session, field: field)
      let lit = board.blinkIsLit(at: now, anchor: session.lastActivity)
      if case .list = session.entry {
        return board.spec.cursor == .blink && !lit ? dark : (cells, nil)
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
      if let point = colon, !cells[point].contains(.dp) {
        colon = nil  // the cursor's blink took the colon's point
      }
      return (cells, colon)
    }
    if let armed = board.resetArmedAt, !board.blinkIsLit(at: now, anchor: armed) {
      return dark
    }
    if let format = field.clockFormat {
      guard !board.clockIsBlank(index, at: now) else { return dark }
      return clockCells(format, time: board.clockTime(index, at: now), width: field.width)
    }
    if case .penalties = field.kind {
      let shown = penaltyRendering(of: board, field: index, at: now)
      return (shown.cells, shown.colons.first)
    }
    return (valueCells(field, value: board.values[index]), nil)
  }

  /// The cells of a clock showing `time` in `width` cells, right-aligned (`12:00`,
  /// ` 9:59`, ` 53.8`), and the cell the colon follows. Tenths that do not fit are left
  /// out.
  public static func clockCells(_ format: ClockFormat, time: Duration, width: Int)
    -> (cells: [Segments], colon: Int?)
  {
    var shown = timeCells(format.text(time))
    if shown.cells.count > width {
      var wholeSeconds = format
      wholeSeconds.tenthsBelow = .zero
      shown = timeCells(wholeSeconds.text(time))
    }
    return rightAligned(shown.cells, colon: shown.colon, width: width)
  }

  /// The cells of a time's text (`12:00`, `53.8`): a digit per cell, `:` and `.` as the
  /// point of the cell before; the cell before the `:`.
  static func timeCells(_ text: String) -> (cells: [Segments], colon: Int?) {
    var cells: [Segments] = []
    var colon: Int?
    for character in text {
      switch character {
      case ":", ".":
        guard let last = cells.indices.last else { continue }
        cells[last].insert(.dp)
        if character == ":" {
          colon = last
        }
      default:
        cells.append(SegmentFont.segments(for: character) ?? .blank)
      }
    }
    return (cells, colon)
  }

  /// `cells` right-aligned in `width` cells (the leftmost left out when too many), with
  /// the colon's cell moved along.
  static func rightAligned(_ cells: [Segments], colon: Int?, width: Int)
    -> (cells: [Segments], colon: Int?)
  {
    let shift = width - cells.count
    let aligned =
      shift >= 0
      ? [Segments].cells(.blank, count: shift) + cells : Array(cells.suffix(width))
    let moved = colon.map { $0 + shift }.flatMap { (0..<width).contains($0) ? $0 : nil }
    return (aligned, moved)
  }

  /// The cells of an entry being typed into a clock: the digits right-aligned, untyped
  /// cells dark; a game clock's colon while whole seconds are typed, the point before
  /// the tenth when it is typed.
  static func clockEntryCells(_ session: EditSession, format: ClockFormat, width: Int)
    -> (cells: [Segments], colon: Int?)
  {
    let digits: [Int?]
    switch session.entry {
    case .overwrite(let cells, _): digits = cells
    case .shift(let typed, _): digits = typed.map { Optional($0) }
    case .list, .penalty: digits = []
    }
    var cells = digits.map { digit in digit.map(SegmentFont.digit) ?? .blank }
    var colon: Int?
    if digits.count == format.wholeSecondDigits + 1 {
      cells[cells.count - 2].insert(.dp)
    } else if format.role == .game {
      let point = format.wholeSecondDigits - 3 - (format.wholeSecondDigits - cells.count)
      let padded = [Segments].cells(.blank, count: max(-point, 0)) + cells
      cells = padded
      let index = max(point, 0)
      cells[index].insert(.dp)
      colon = index
    }
    return rightAligned(cells, colon: colon, width: width)
  }

  /// The cells of an entry, and the colon's cell for a clock.
  static func entryRendering(_ session: EditSession, field: FieldSpec)
    -> (cells: [Segments], colon: Int?)
  {
    if let format = field.clockFormat {
      return clockEntryCells(session, format: format, width: field.width)
    }
    return (entryCells(session, field: field), nil)
  }

  /// The cells showing a committed value: numbers right-aligned after placeholder
  /// cells, list values right-aligned after blank cells.
  public static func valueCells(_ field: FieldSpec, value: Int) -> [Segments] {
    switch field.kind {
    case .number(let format):
      var cells = [Segments].cells(.blank, count: field.width)
      draw(value, width: field.width, placeholder: format.placeholder, into: &cells, at: 0)
      return cells
    case .list:
      let cells = (try? SegmentFont.cells(for: field.text(of: value))) ?? []
      return [Segments].cells(.blank, count: max(field.width - cells.count, 0))
        + cells.suffix(field.width)
    case .clock(let format):
      return clockCells(format, time: .zero, width: field.width).cells
    case .penalties:
      return [Segments].cells(.blank, count: field.width)
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
    if let format = field.clockFormat {
      return clockEntryCells(session, format: format, width: field.width).cells
    }
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
    case .penalty(let player, _):
      return numberCells(player.map { Optional($0) }, width: field.width, placeholder: .blank)
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
    return [Segments].cells(placeholder.segments, count: width - cells.count) + cells
  }
}
