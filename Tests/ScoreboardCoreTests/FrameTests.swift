import ScoreboardCore
import Testing

/// A frame's members that few displays use (texts, letters, indicator lights) are kept
/// apart from its cells; a frame reads, compares and hashes as if they were not.
@Suite struct FrameTests {
  static let cells = [SegmentFont.digit(1), .blank, SegmentFont.digit(2)]

  @Test func aFrameOfSegmentsAloneHasNoTextsLettersOrLights() {
    let frame = Frame(cells: Self.cells, brightness: 8, colons: [0])
    #expect(frame.fieldTexts.isEmpty)
    #expect(frame.characters == nil)
    #expect(frame.indicators.isEmpty)
    #expect(frame.colons == [0])
  }

  @Test func eachMemberReadsBackAsItWasSet() {
    var frame = Frame(cells: Self.cells, brightness: 8)
    frame.fieldTexts["home"] = "12"
    frame.characters = ["A", " ", "B"]
    frame.indicators = [true, false]
    #expect(frame.fieldTexts == ["home": "12"])
    #expect(frame.characters == ["A", " ", "B"])
    #expect(frame.indicators == [true, false])
    frame.characters?[1] = "-"
    #expect(frame.characters == ["A", "-", "B"])
    #expect(frame.fieldTexts == ["home": "12"], "the others are kept")
  }

  @Test func aCopyIsUnchangedByAChangeToTheOriginal() {
    var frame = Frame(cells: Self.cells, brightness: 8, fieldTexts: ["home": "12"])
    let copy = frame
    frame.fieldTexts["home"] = "13"
    #expect(copy.fieldTexts == ["home": "12"])
    #expect(frame != copy)
  }

  @Test func framesWithTheSameMembersAreEqualAndHashAlike() {
    let made = Frame(
      cells: Self.cells, brightness: 8, fieldTexts: ["home": "12"], characters: ["1", " ", "2"],
      indicators: [true])
    var built = Frame(cells: Self.cells, brightness: 8)
    built.indicators = [true]
    built.characters = ["1", " ", "2"]
    built.fieldTexts = ["home": "12"]
    #expect(made == built)
    #expect(made.hashValue == built.hashValue)
    #expect(Set([made, built]).count == 1)
  }

  @Test func membersEmptiedAgainCompareEqualToAFrameWithoutThem() {
    var frame = Frame(cells: Self.cells, brightness: 8, indicators: [false])
    frame.indicators = []
    #expect(frame == Frame(cells: Self.cells, brightness: 8))
    var noLetters = Frame(cells: Self.cells, brightness: 8, characters: [])
    #expect(noLetters != Frame(cells: Self.cells, brightness: 8), "no letters is not nil")
    noLetters.characters = nil
    #expect(noLetters == Frame(cells: Self.cells, brightness: 8))
  }

  @Test func colonsTakenOffAgainCompareEqualToAFrameWithoutThem() {
    var frame = Frame(cells: Self.cells, brightness: 8, colons: [1])
    #expect(frame.colons == [1])
    frame.colons = nil
    #expect(frame.colons == nil)
    #expect(frame == Frame(cells: Self.cells, brightness: 8))
    #expect(frame.hashValue == Frame(cells: Self.cells, brightness: 8).hashValue)
    frame.colons?.append(2)
    #expect(frame.colons == nil, "appending to no colons leaves none")
    frame.colons = []
    #expect(frame.colons == [], "a clock with no colon lit is not nil")
    #expect(frame != Frame(cells: Self.cells, brightness: 8))
  }

  @Test(arguments: [
    Frame(cells: cells, brightness: 8, fieldTexts: ["home": "13"]),
    Frame(cells: cells, brightness: 8, characters: ["1", " ", "3"]),
    Frame(cells: cells, brightness: 8, indicators: [false]),
    Frame(cells: cells, brightness: 8, colons: []),
  ])
  func aFrameDiffersByAnyOneMember(other: Frame) {
    let frame = Frame(
      cells: Self.cells, brightness: 8, fieldTexts: ["home": "12"], characters: ["1", " ", "2"],
      indicators: [true])
    #expect(frame != other)
    #expect(Frame(cells: Self.cells, brightness: 8) != other)
  }
}
