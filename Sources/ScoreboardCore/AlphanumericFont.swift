/// The characters a fourteen-segment cell shows, and their segments: digits, letters
/// (each in one shape for both cases) and a few signs.
public enum AlphanumericFont {
  /// Every glyph of the font, in a stable order.
  public static let glyphs: [(character: Character, segments: AlphanumericSegments)] = [
    ("0", [.a, .b, .c, .d, .e, .f, .k, .n]),
    ("1", [.b, .c, .k]),
    ("2", [.a, .b, .d, .e, .g1, .g2]),
    ("3", [.a, .b, .c, .d, .g2]),
    ("4", [.b, .c, .f, .g1, .g2]),
    ("5", [.a, .d, .f, .g1, .l]),
    ("6", [.a, .c, .d, .e, .f, .g1, .g2]),
    ("7", [.a, .b, .c]),
    ("8", [.a, .b, .c, .d, .e, .f, .g1, .g2]),
    ("9", [.a, .b, .c, .d, .f, .g1, .g2]),
    ("A", [.a, .b, .c, .e, .f, .g1, .g2]),
    ("B", [.a, .b, .c, .d, .g2, .j, .m]),
    ("C", [.a, .d, .e, .f]),
    ("D", [.a, .b, .c, .d, .j, .m]),
    ("E", [.a, .d, .e, .f, .g1]),
    ("F", [.a, .e, .f, .g1]),
    ("G", [.a, .c, .d, .e, .f, .g2]),
    ("H", [.b, .c, .e, .f, .g1, .g2]),
    ("I", [.a, .d, .j, .m]),
    ("J", [.b, .c, .d, .e]),
    ("K", [.e, .f, .g1, .k, .l]),
    ("L", [.d, .e, .f]),
    ("M", [.b, .c, .e, .f, .h, .k]),
    ("N", [.b, .c, .e, .f, .h, .l]),
    ("O", [.a, .b, .c, .d, .e, .f]),
    ("P", [.a, .b, .e, .f, .g1, .g2]),
    ("Q", [.a, .b, .c, .d, .e, .f, .l]),
    ("R", [.a, .b, .e, .f, .g1, .g2, .l]),
    ("S", [.a, .c, .d, .f, .g1, .g2]),
    ("T", [.a, .j, .m]),
    ("U", [.b, .c, .d, .e, .f]),
    ("V", [.e, .f, .k, .n]),
    ("W", [.b, .c, .e, .f, .l, .n]),
    ("X", [.h, .k, .l, .n]),
    ("Y", [.h, .k, .m]),
    ("Z", [.a, .d, .k, .n]),
    (" ", []),
    ("-", [.g1, .g2]),
    ("_", [.d]),
    ("+", [.g1, .g2, .j, .m]),
    ("/", [.k, .n]),
    ("*", [.g1, .g2, .h, .j, .k, .l, .m, .n]),
    ("=", [.d, .g1, .g2]),
    ("'", [.j]),
    ("<", [.k, .l]),
    (">", [.h, .n]),
  ]

  private static let table: [Character: AlphanumericSegments] = Dictionary(
    glyphs.map { ($0.character, $0.segments) }, uniquingKeysWith: { first, _ in first })

  /// The segments of `character`, or nil when the font has no glyph for it. Lowercase
  /// letters are shown as their capitals.
  public static func segments(for character: Character) -> AlphanumericSegments? {
    table[character] ?? table[Character(character.uppercased())]
  }

  /// The characters of `text`, one per cell; a `.` lights the point of the cell before it.
  ///
  /// - Throws: `UnshowableText` naming the first character the font cannot show.
  public static func cells(for text: String) throws(UnshowableText) -> [AlphanumericSegments] {
    try GlyphRow.cells(for: text, point: .dp, segmentCount: 14, glyph: segments(for:))
  }
}
