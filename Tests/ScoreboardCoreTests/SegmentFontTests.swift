import ScoreboardCore
import Testing

@Suite struct SegmentFontTests {
  /// Expected bytes in the canonical order (bit 0 = A ... bit 6 = G, bit 7 = DP),
  /// written out from the segment drawings, not from the font table.
  static let expected: [(Character, UInt8)] = [
    ("0", 0x3F), ("1", 0x06), ("2", 0x5B), ("3", 0x4F), ("4", 0x66),
    ("5", 0x6D), ("6", 0x7D), ("7", 0x07), ("8", 0x7F), ("9", 0x6F),
    (" ", 0x00), ("-", 0x40), ("_", 0x08),
    ("A", 0x77), ("b", 0x7C), ("C", 0x39), ("c", 0x58), ("d", 0x5E), ("E", 0x79),
    ("F", 0x71), ("G", 0x3D), ("H", 0x76), ("h", 0x74), ("I", 0x30), ("J", 0x1E),
    ("L", 0x38), ("n", 0x54), ("o", 0x5C), ("O", 0x3F), ("P", 0x73), ("q", 0x67),
    ("r", 0x50), ("S", 0x6D), ("t", 0x78), ("U", 0x3E), ("u", 0x1C), ("y", 0x6E),
  ]

  @Test(arguments: expected)
  func glyphHasItsSegmentByte(character: Character, byte: UInt8) {
    #expect(SegmentFont.segments(for: character)?.rawValue == byte)
  }

  @Test func everyGlyphOfTheFontIsChecked() {
    let checked = Set(Self.expected.map(\.0))
    #expect(Set(SegmentFont.glyphs.map(\.character)) == checked)
  }

  @Test(
    arguments: [("T", "t"), ("a", "A"), ("B", "b"), ("N", "n"), ("s", "S"), ("Y", "y")]
      as [(Character, Character)])
  func aLetterInTheOtherCaseUsesTheFontsShape(asked: Character, shown: Character) {
    #expect(SegmentFont.segments(for: asked) == SegmentFont.segments(for: shown))
  }

  @Test(arguments: ["K", "M", "V", "W", "X", "Z", "%", "é"] as [Character])
  func unshowableCharactersHaveNoShape(character: Character) {
    #expect(SegmentFont.segments(for: character) == nil)
  }

  @Test func cellsForTextPutDecimalPointsOnThePreviousCell() throws {
    #expect(try SegmentFont.cells(for: "1.5").map(\.rawValue) == [0x86, 0x6D])
    #expect(try SegmentFont.cells(for: ".5").map(\.rawValue) == [0x80, 0x6D])
  }

  @Test func cellsForTextNameTheFirstUnshowableCharacter() {
    #expect(throws: UnshowableText(text: "WIN", character: "W")) {
      try SegmentFont.cells(for: "WIN")
    }
    #expect(
      UnshowableText(text: "WIN", character: "W").description
        == "\"WIN\" cannot be shown on seven segments: 'W' has no legible shape")
  }

  @Test func textReadsCellsBack() {
    #expect(
      SegmentFont.text(for: [.blank, .b, .init(rawValue: 0x86), .init(rawValue: 0x49)]) == " ?1.?")
  }

  @Test(arguments: [0, 1, 4, 12])
  func cellsOfOnePatternAreAsManyAsAsked(count: Int) {
    let lit = [Segments].cells(SegmentFont.digit(8), count: count)
    #expect(lit == Array(repeating: SegmentFont.digit(8), count: count))
    #expect([Segments].cells(.blank, count: count).allSatisfy { $0 == .blank })
    #expect([Segments].cells(.blank, count: count).count == count)
  }
}
