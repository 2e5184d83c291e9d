import ScoreboardCore
import Testing

/// Where a notice (the web console's pairing code) goes on the board's displays.
@Suite struct RendererNoticeTests {
  private func display(_ name: String, cells: Int) -> DisplayLayout {
    DisplayLayout(name: name, cellCount: cells)
  }

  @Test func everyDisplayWithRoomShowsTheWholeTextRightAligned() {
    let cells = Renderer.noticeCells(
      "123456", displays: [display("clock", cells: 4), display("score", cells: 8)])
    #expect(cells["clock"] == nil)
    #expect(cells["score"].map(SegmentFont.text) == "  123456")
  }

  @Test func withoutRoomTheTextRunsAcrossTheDisplaysInOrder() {
    let cells = Renderer.noticeCells(
      "123456", displays: [display("a", cells: 4), display("b", cells: 4), display("c", cells: 2)])
    #expect(cells["a"].map(SegmentFont.text) == "1234")
    #expect(cells["b"].map(SegmentFont.text) == "56  ")
    #expect(cells["c"] == nil)
  }

  @Test func aTextWithRoomIsOnePage() {
    let displays = [display("a", cells: 4), display("b", cells: 2)]
    let pages = Renderer.noticePages("123456", displays: displays)
    #expect(pages == [Renderer.noticeCells("123456", displays: displays)])
  }

  @Test func aTextLongerThanAllTheCellsIsShownInPieces() {
    let pages = Renderer.noticePages("123456", displays: [display("a", cells: 4)])
    #expect(pages.map { $0["a"].map(SegmentFont.text) } == ["1234", "56  "])
    let across = Renderer.noticePages(
      "123456", displays: [display("a", cells: 2), display("b", cells: 3)])
    #expect(across.map { $0["a"].map(SegmentFont.text) } == ["12", "6 "])
    #expect(across.map { $0["b"].map(SegmentFont.text) } == ["345", "   "])
    #expect(Renderer.noticePages("123456", displays: [display("a", cells: 1)]).count == 6)
  }

  @Test func theNoticeHidesTheBoardsColonsLettersAndIndicators() {
    let frame = Frame(
      cells: Array(repeating: .g, count: 6), brightness: 7, isBlank: true,
      fieldTexts: ["home": "12"], colons: [1], characters: Array("ABCDEF"),
      indicators: [true, false])
    let cells = Renderer.noticeCells("123456", displays: [display("d", cells: 6)])["d"]!
    let shown = Renderer.showing(cells, over: frame)
    #expect(SegmentFont.text(for: shown.cells) == "123456")
    #expect(!shown.isBlank)
    #expect(shown.brightness == 7)
    #expect(shown.colons == [])
    #expect(shown.characters == Array("123456"))
    #expect(shown.indicators == [false, false])
    #expect(shown.fieldTexts == ["home": "  "])
  }
}
