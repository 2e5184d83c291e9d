/// The characters a seven-segment cell can show legibly, and their segments.
public enum SegmentFont {
  /// Every glyph of the font, in a stable order.
  public static let glyphs: [(character: Character, segments: Segments)] = [
    ("0", [.a, .b, .c, .d, .e, .f]),
    ("1", [.b, .c]),
    ("2", [.a, .b, .d, .e, .g]),
    ("3", [.a, .b, .c, .d, .g]),
    ("4", [.b, .c, .f, .g]),
    ("5", [.a, .c, .d, .f, .g]),
    ("6", [.a, .c, .d, .e, .f, .g]),
    ("7", [.a, .b, .c]),
    ("8", [.a, .b, .c, .d, .e, .f, .g]),
    ("9", [.a, .b, .c, .d, .f, .g]),
    (" ", []),
    ("-", [.g]),
    ("_", [.d]),
    ("A", [.a, .b, .c, .e, .f, .g]),
    ("b", [.c, .d, .e, .f, .g]),
    ("C", [.a, .d, .e, .f]),
    ("c", [.d, .e, .g]),
    ("d", [.b, .c, .d, .e, .g]),
    ("E", [.a, .d, .e, .f, .g]),
    ("F", [.a, .e, .f, .g]),
    ("G", [.a, .c, .d, .e, .f]),
    ("H", [.b, .c, .e, .f, .g]),
    ("h", [.c, .e, .f, .g]),
    ("I", [.e, .f]),
    ("J", [.b, .c, .d, .e]),
    ("L", [.d, .e, .f]),
    ("n", [.c, .e, .g]),
    ("o", [.c, .d, .e, .g]),
    ("O", [.a, .b, .c, .d, .e, .f]),
    ("P", [.a, .b, .e, .f, .g]),
    ("q", [.a, .b, .c, .f, .g]),
    ("r", [.e, .g]),
    ("S", [.a, .c, .d, .f, .g]),
    ("t", [.d, .e, .f, .g]),
    ("U", [.b, .c, .d, .e, .f]),
    ("u", [.c, .d, .e]),
    ("y", [.b, .c, .d, .f, .g]),
  ]

  private static let table: [Character: Segments] = Dictionary(
    glyphs.map { ($0.character, $0.segments) }, uniquingKeysWith: { first, _ in first })

  private static let reverse: [Segments: Character] = Dictionary(
    glyphs.map { ($0.segments, $0.character) }, uniquingKeysWith: { first, _ in first })

  /// The segments of the decimal digit `value` (0 to 9).
  public static func digit(_ value: Int) -> Segments {
    precondition((0...9).contains(value), "\(value) is not a decimal digit")
    return glyphs[value].segments
  }

  /// The segments of `character`, or nil when the font cannot show it.
  ///
  /// A letter that exists in the font only in the other case is shown in that case
  /// (`T` as `t`, `a` as `A`), since a seven-segment cell has only one shape for it.
  public static func segments(for character: Character) -> Segments? {
    if let exact = table[character] {
      return exact
    }
    let lower = Character(character.lowercased())
    let upper = Character(character.uppercased())
    return table[lower] ?? table[upper]
  }

  /// The character a cell showing `segments` reads as (ignoring the decimal point), if any.
  public static func character(for segments: Segments) -> Character? {
    reverse[segments.withoutPoint]
  }

  /// The cells that show `text`. A `.` lights the decimal point of the cell before it.
  ///
  /// - Throws: `UnshowableText` naming the first character the font cannot show.
  public static func cells(for text: String) throws(UnshowableText) -> [Segments] {
    try GlyphRow.cells(for: text, point: .dp, segmentCount: 7, glyph: segments(for:))
  }

  /// The text a row of cells reads as; a cell no glyph matches reads as `?`.
  public static func text(for cells: [Segments]) -> String {
    var text = ""
    for cell in cells {
      text.append(character(for: cell) ?? "?")
      if cell.contains(.dp) {
        text.append(".")
      }
    }
    return text
  }
}

/// Text that a seven-segment (or fourteen-segment) display cannot show.
public struct UnshowableText: Error, Equatable, CustomStringConvertible {
  public var text: String
  public var character: Character
  /// The segments of the cells it was meant for: 7, or 14 for alphanumeric cells.
  public var segmentCount: Int

  public init(text: String, character: Character, segmentCount: Int = 7) {
    self.text = text
    self.character = character
    self.segmentCount = segmentCount
  }

  public var description: String {
    let segments = segmentCount == 14 ? "fourteen" : "seven"
    return
      "\"\(text)\" cannot be shown on \(segments) segments: '\(character)' has no legible shape"
  }
}
