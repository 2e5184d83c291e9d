extension Renderer {
  /// The cells by display name that show `text` (such as a pairing code) over the board:
  /// each display with room for the whole text shows it right-aligned; when none has
  /// room, the text runs across the displays in their order, left to right. Displays
  /// that show nothing of it are left out.
  public static func noticeCells(_ text: String, displays: [DisplayLayout]) -> [String: [Segments]]
  {
    let glyphs = text.map { SegmentFont.segments(for: $0) ?? .blank }
    var result: [String: [Segments]] = [:]
    let roomy = displays.filter { $0.cellCount >= glyphs.count }
    if !roomy.isEmpty {
      for display in roomy {
        result[display.name] =
          [Segments].cells(.blank, count: display.cellCount - glyphs.count) + glyphs
      }
      return result
    }
    var remaining = glyphs[...]
    for display in displays where !remaining.isEmpty {
      var cells = Array(remaining.prefix(display.cellCount))
      remaining = remaining.dropFirst(cells.count)
      cells += [Segments].cells(.blank, count: display.cellCount - cells.count)
      result[display.name] = cells
    }
    return result
  }

  /// The pages of `text` over the board, each the cells by display name: one page, as
  /// `noticeCells` lays it out, when the displays have room for the whole text; else
  /// the text in pieces as long as all their cells, each running across them in their
  /// order, left to right, shown in turn (a six-digit code on one 4-digit display:
  /// `1234`, then `56  `). Every display is part of each piece's page, dark where the
  /// piece ends.
  public static func noticePages(_ text: String, displays: [DisplayLayout]) -> [[String:
    [Segments]]]
  {
    let room = displays.reduce(0) { $0 + $1.cellCount }
    guard room > 0, text.count > room else { return [noticeCells(text, displays: displays)] }
    var pages: [[String: [Segments]]] = []
    var rest = text.map { SegmentFont.segments(for: $0) ?? .blank }[...]
    while !rest.isEmpty {
      var page: [String: [Segments]] = [:]
      for display in displays {
        let cells = Array(rest.prefix(display.cellCount))
        rest = rest.dropFirst(cells.count)
        page[display.name] =
          cells + [Segments].cells(.blank, count: display.cellCount - cells.count)
      }
      pages.append(page)
    }
    return pages
  }

  /// `frame` showing `cells` alone: lit (not blanked), with no colon, letters or
  /// indicators of the board.
  public static func showing(_ cells: [Segments], over frame: Frame) -> Frame {
    var shown = frame
    shown.cells = cells
    shown.isBlank = false
    shown.colons = frame.colons.map { _ in [] }
    shown.characters = frame.characters.map { _ in
      cells.map { SegmentFont.character(for: $0) ?? " " }
    }
    shown.indicators = frame.indicators.map { _ in false }
    shown.fieldTexts = frame.fieldTexts.mapValues { String(repeating: " ", count: $0.count) }
    return shown
  }
}
