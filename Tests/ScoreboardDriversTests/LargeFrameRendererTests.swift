import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct LargeFrameRendererTests {
  let renderer = LargeFrameRenderer(
    name: "main", cellCount: 5, fields: Fixtures.fields, footer: "0-9 type  Enter commit")

  func screen(showing frame: Frame) -> TerminalScreen {
    var screen = TerminalScreen()
    screen.apply(renderer.redraw(from: nil, to: renderer.lines(for: frame)))
    return screen
  }

  @Test(arguments: ["12 73", "88888", "8.8.8.8.8.", "-- 1 ", "     ", "0A1bF"])
  func decodesToTheFrame(text: String) throws {
    let frame = Fixtures.frame(text)
    let screen = screen(showing: frame)
    #expect(try LargeDrawingDecoder(screen: screen).segments(cellCount: 5) == frame.cells)
    #expect(screen.unknownEscapes.isEmpty)
    #expect(screen.lineFeeds == 0)
  }

  /// A clock's colon is drawn in the gap after its cell, in place of the point the frame
  /// lights there.
  @Test(
    arguments: [
      ("12.34 ", [1]),
      ("1.2.34.5", [1]),
      (" 53.8 ", []),
      ("12.34.5.", [1, 3]),
      ("1234 ", [1]),
    ] as [(String, [Int])])
  func aClockColonIsDrawnInsteadOfThePoint(text: String, colons: [Int]) throws {
    let frame = Fixtures.frame(text, colons: colons)
    let decoder = LargeDrawingDecoder(screen: screen(showing: frame))
    let pointsShown = frame.cells.indices.map { cell in
      colons.contains(cell) ? frame.cells[cell].withoutPoint : frame.cells[cell]
    }
    let segments = try decoder.segments(cellCount: 5)
    let litColons = try decoder.litColons(cellCount: 5)
    #expect(segments == pointsShown)
    #expect(litColons == colons)
  }

  @Test func framesWithoutAColonDrawNone() throws {
    let clock = renderer.lines(for: Fixtures.frame(" 53.8 ", colons: []))
    #expect(clock == renderer.lines(for: Fixtures.frame(" 53.8 ")), "no colon, no change")
    let decoder = LargeDrawingDecoder(screen: screen(showing: Fixtures.frame("12.34 ")))
    let colons = try (0..<5).map { try decoder.colon(after: $0) }
    #expect(colons == [nil, nil, nil, nil, nil])
  }

  @Test func aBlankClockDrawsItsColonUnlit() throws {
    let decoder = LargeDrawingDecoder(
      screen: screen(showing: Fixtures.frame("12.34 ", isBlank: true, colons: [1])))
    let colon = try decoder.colon(after: 1)
    let segments = try decoder.segments(cellCount: 5)
    #expect(colon == .unlit)
    #expect(segments == Array(repeating: [], count: 5))
  }

  @Test func fromMinutesToTenthsTheColonGoesAndThePointComes() throws {
    let minutes = renderer.lines(for: Fixtures.frame("01.00 ", colons: [1]))
    let tenths = renderer.lines(for: Fixtures.frame(" 59.9 ", colons: []))
    var screen = TerminalScreen()
    screen.apply(renderer.redraw(from: nil, to: minutes))
    let colonsBefore = try LargeDrawingDecoder(screen: screen).litColons(cellCount: 5)
    #expect(colonsBefore == [1])
    screen.apply(renderer.redraw(from: minutes, to: tenths))
    let decoder = LargeDrawingDecoder(screen: screen)
    let colonsAfter = try decoder.litColons(cellCount: 5)
    let segments = try decoder.segments(cellCount: 5)
    #expect(colonsAfter == [])
    #expect(segments == Fixtures.frame(" 59.9 ").cells)
    #expect(screen.unknownEscapes.isEmpty)
  }

  @Test func blankFrameDrawsEverySegmentUnlit() throws {
    let screen = screen(showing: Fixtures.frame("88888", isBlank: true))
    #expect(
      try LargeDrawingDecoder(screen: screen).segments(cellCount: 5)
        == Array(repeating: [], count: 5))
  }

  @Test func brightnessChangesTheRed() throws {
    func litColor(brightness: Int) throws -> LargeDrawingDecoder.State? {
      let screen = screen(showing: Fixtures.frame("88888", brightness: brightness))
      return try LargeDrawingDecoder(screen: screen).states(of: .a, cell: 0).first
    }
    let reds = try (0...15).map { brightness in
      let state = try litColor(brightness: brightness)
      guard case .lit(let color) = state else { return -1 }
      return LargeDrawingDecoder.reds.firstIndex(of: color) ?? -1
    }
    // Every level is lit in a red, the reds never get darker as brightness rises, and
    // there are at least four visibly different steps ending in the brightest red.
    #expect(reds.allSatisfy { $0 >= 0 })
    #expect(reds == reds.sorted())
    #expect(Set(reds).count >= 4)
    #expect(reds.last == LargeDrawingDecoder.reds.count - 1)
  }

  @Test func namesLabelsAndFooter() throws {
    let screen = screen(showing: Fixtures.frame("12 73"))
    #expect(screen.text(row: 1) == "  main")
    #expect(screen.text(row: 10) == "  0-9 type  Enter commit")

    // Each label is centred over its field's cells: columns 3 + 8 * position to
    // 3 + 8 * (position + width) - 2.
    let labels = Array(screen.text(row: 2))
    for field in Fixtures.fields {
      let first = 3 + 8 * field.position
      let last = 3 + 8 * (field.position + field.width) - 2
      let label = Array(field.label)
      let index = try #require(
        labels.indices.first { labels[$0...].starts(with: label) }, "\(field.label) missing")
      let start = index + 1
      let end = start + label.count - 1
      #expect(abs((start + end) - (first + last)) <= 1, "\(field.label) is not centred")
    }
  }

  @Test func firstDrawingHidesTheCursorAndEndingShowsItBelowTheDrawing() {
    var screen = screen(showing: Fixtures.frame("12 73"))
    #expect(!screen.isCursorVisible)
    screen.apply(renderer.ending)
    #expect(screen.isCursorVisible)
    #expect(screen.row == LargeFrameRenderer.height + 1)
    #expect(screen.column == 1)
  }

  @Test func updateRewritesOnlyChangedLinesInPlace() throws {
    let first = renderer.lines(for: Fixtures.frame("12 73"))
    let second = renderer.lines(for: Fixtures.frame("13 73"))
    var screen = TerminalScreen()
    screen.apply(renderer.redraw(from: nil, to: first))
    screen.apply("log line\r\n")
    let cursor = (screen.row, screen.column)

    let update = renderer.redraw(from: first, to: second)
    let fullDrawing = renderer.redraw(from: nil, to: second)
    #expect(!update.isEmpty)
    #expect(update.utf8.count < fullDrawing.utf8.count / 2)
    screen.apply(update)
    let decoded = try LargeDrawingDecoder(screen: screen).segments(cellCount: 5)
    #expect(decoded == Fixtures.frame("13 73").cells)
    #expect(screen.text(row: 1) == "  main")
    #expect(screen.text(row: LargeFrameRenderer.height + 1) == "log line")
    #expect(screen.row == cursor.0 && screen.column == cursor.1)
    #expect(screen.lineFeeds == 1)
    #expect(screen.unknownEscapes.isEmpty)

    #expect(renderer.redraw(from: second, to: second).isEmpty)
  }

  @Test func startsAtTheGivenRowAndLeavesTheRowsAboveAlone() throws {
    let renderer = LargeFrameRenderer(
      name: "clock", cellCount: 2, fields: [], footer: nil, firstRow: 12)
    var screen = TerminalScreen()
    screen.apply("\u{1B}[1;1Hkept")
    screen.apply(renderer.redraw(from: nil, to: renderer.lines(for: Fixtures.frame("42"))))
    #expect(screen.text(row: 1) == "kept")
    #expect(screen.text(row: 12) == "  clock")
    let decoder = LargeDrawingDecoder(screen: screen, firstRow: 12)
    #expect(try decoder.segments(cellCount: 2) == Fixtures.frame("42").cells)
  }
}
