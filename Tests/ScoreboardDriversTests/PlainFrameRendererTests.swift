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
  }
}
