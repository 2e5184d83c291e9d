import ScoreboardCore
import Testing

/// Labels, and what cells show on displays whose cells have fourteen segments.
@Suite struct AlphanumericRenderingTests {
  static let possession = FieldSpec(
    name: "possession", label: "BALL", display: "names", position: 4, width: 4,
    kind: .list(["HOME", "AWAY"]), defaultValue: 0)
  static let home = FieldSpec(
    name: "home", label: "HOME", display: "names", position: 0, width: 2,
    kind: .number(NumberFormat(digits: 2)), defaultValue: 7)

  static func spec(alphanumeric: Bool = true, labels: [LabelSpec] = []) -> ScoreboardSpec {
    ScoreboardSpec(
      fields: [home, possession],
      displays: [DisplayLayout(name: "names", cellCount: 8, isAlphanumeric: alphanumeric)],
      labels: labels)
  }

  static func characters(_ board: Scoreboard, at now: Instant = .zero) -> String? {
    Renderer.frames(of: board, at: now)[0].characters.map { String($0) }
  }

  @Test func listValuesShowAsWrittenOnLetterCells() throws {
    var board = Scoreboard(spec: Self.spec())
    #expect(Self.characters(board) == " 7  HOME")
    _ = try board.perform(.set(field: "possession", value: "AWAY"), at: .zero)
    #expect(Self.characters(board) == " 7  AWAY")
    #expect(Renderer.frames(of: board, at: .zero)[0].text == " 7  AWAY")
  }

  @Test func aListBeingChosenBlinksOnLetterCells() throws {
    var board = Scoreboard(spec: Self.spec())
    _ = try board.perform(.select(field: "possession"), at: .zero)
    _ = try board.perform(.add(field: nil, amount: 1), at: .zero)
    #expect(Self.characters(board, at: .milliseconds(100)) == " 7  AWAY")
    #expect(Self.characters(board, at: .milliseconds(600)) == " 7      ", "the cursor's dark phase")
  }

  @Test func numbersAndTheBlinkingCursorReadAsTheirDigits() throws {
    var board = Scoreboard(spec: Self.spec())
    _ = try board.perform(.select(field: "home"), at: .zero)
    _ = try board.perform(.digit(4), at: .zero)
    #expect(Self.characters(board, at: .milliseconds(100))?.prefix(2) == "47")
    #expect(Self.characters(board, at: .milliseconds(600))?.prefix(2) == "4 ", "the cursor")
  }

  @Test func sevenSegmentDisplaysHaveNoCharacters() {
    let board = Scoreboard(spec: Self.spec(alphanumeric: false))
    #expect(Self.characters(board) == nil)
  }

  @Test func labelsAreDrawnOnBothKindsOfDisplay() {
    let labels = [LabelSpec(name: "per", display: "names", position: 2, text: "P.")]
    let letters = Scoreboard(spec: Self.spec(labels: labels))
    #expect(Self.characters(letters) == " 7P HOME")
    let frame = Renderer.frames(of: letters, at: .zero)[0]
    #expect(frame.cells[2] == SegmentFont.segments(for: "P")!.union(.dp))
    let segments = Scoreboard(spec: Self.spec(alphanumeric: false, labels: labels))
    #expect(Renderer.frames(of: segments, at: .zero)[0].cells[2] == frame.cells[2])
  }

  @Test func aSliceKeepsItsCharacters() {
    let board = Scoreboard(spec: Self.spec())
    let frame = Renderer.frames(of: board, at: .zero)[0].slice(4..<8)
    #expect(frame.characters.map { String($0) } == "HOME")
  }

  @Test(arguments: ["HOME", "GUEST", "AWAY", "0123456789", "PERIOD", "FOUL", "WXYZ"])
  func theAlphanumericFontShowsEveryLetterAndDigit(text: String) throws {
    let cells = try AlphanumericFont.cells(for: text)
    #expect(cells.count == text.count)
    #expect(!cells.contains([]))
    #expect(try AlphanumericFont.cells(for: text.lowercased()) == cells)
  }

  @Test func theAlphanumericFontGivesEachCharacterItsOwnShape() {
    let shapes = AlphanumericFont.glyphs.map(\.segments)
    #expect(Set(shapes).count == shapes.count)
  }

  @Test func textTheAlphanumericFontCannotShowNamesTheCharacter() {
    #expect(throws: UnshowableText(text: "A~B", character: "~", segmentCount: 14)) {
      try AlphanumericFont.cells(for: "A~B")
    }
    #expect(
      UnshowableText(text: "A~B", character: "~", segmentCount: 14).description
        == "\"A~B\" cannot be shown on fourteen segments: '~' has no legible shape")
  }
}
