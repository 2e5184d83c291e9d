import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct PlainFrameRendererTests {
  let renderer = PlainFrameRenderer(name: "main", fields: Fixtures.fields.reversed())

  @Test(arguments: [
    ("12 73", "main: 12  7 3"),
    ("   01", "main:     0 1"),
    ("1.2993", "main: 1.2 99 3"),
    ("-- --", "main: --  - -"),
  ])
  func fieldsInPositionOrder(text: String, expected: String) {
    #expect(renderer.line(for: Fixtures.frame(text)) == expected)
  }

  @Test func blankFrame() {
    #expect(renderer.line(for: Fixtures.frame("12 73", isBlank: true)) == "main: blank")
  }

  @Test func displayWithoutFieldsShowsAllCells() {
    let renderer = PlainFrameRenderer(name: "clock", fields: [])
    #expect(renderer.line(for: Fixtures.frame("1234")) == "clock: 1234")
    #expect(renderer.line(for: Fixtures.frame("12.34", colons: [1])) == "clock: 12:34")
  }

  /// A clock's colon reads as a `:` in place of the point of the cell before it; tenths,
  /// and a point where no colon is, read as a `.`.
  @Test(
    arguments: [
      ("12.343", [1], "main: 12:34 3"),
      ("00.073", [1], "main: 00:07 3"),
      (" 53.83", [], "main:  53.8 3"),
      ("12.343", nil, "main: 12.34 3"),
      ("1.2.343", [1], "main: 1.2:34 3"),
      ("1234 ", [1], "main: 12:34  "),
      ("12.34 ", [1, 3], "main: 12:34:  "),
    ] as [(String, [Int]?, String)])
  func aClockShowsItsColon(text: String, colons: [Int]?, expected: String) {
    let renderer = PlainFrameRenderer(name: "main", fields: Fixtures.clockFields)
    #expect(renderer.line(for: Fixtures.frame(text, colons: colons)) == expected)
  }

  @Test func aColonAfterAFieldsLastCellEndsThatField() {
    let frame = Fixtures.frame("12.34 ", colons: [1])
    #expect(renderer.line(for: frame) == "main: 12: 34  ")
  }

  @Test func blankClock() {
    let renderer = PlainFrameRenderer(name: "main", fields: Fixtures.clockFields)
    #expect(
      renderer.line(for: Fixtures.frame("12.343", isBlank: true, colons: [1])) == "main: blank")
  }
}
