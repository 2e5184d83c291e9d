import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct TextLineProtocolTests {
  let template = try! TextTemplate(parsing: "{home}-{away} P{period}\\r\\n")

  func frame(
    home: String, away: String, period: String, brightness: Int = 8, isBlank: Bool = false
  ) -> Frame {
    Frame(
      cells: try! SegmentFont.cells(for: home + away + period), brightness: brightness,
      isBlank: isBlank, fieldTexts: ["home": home, "away": away, "period": period])
  }

  @Test(arguments: [
    ("12", " 7", "1", false, "12- 7 P1\r\n"),
    (" 0", " 0", "OT", false, " 0- 0 POT\r\n"),
    ("99", "--", "4", false, "99--- P4\r\n"),
    ("12", " 7", "OT", true, "  -   P  \r\n"),
  ])
  func rendersTheTemplate(home: String, away: String, period: String, isBlank: Bool, line: String) {
    var encoder = TextLineProtocol(template: template)
    let bytes = encoder.initialize(
      showing: frame(home: home, away: away, period: period, isBlank: isBlank))
    #expect(bytes == Array(line.utf8))
  }

  @Test func controlBytesAndBrightness() throws {
    var encoder = TextLineProtocol(
      template: try TextTemplate(parsing: "\\x02{home}{away}B{brightness}\\x03"))
    let bytes = encoder.initialize(
      showing: frame(home: "12", away: " 7", period: "1", brightness: 15))
    #expect(bytes == [0x02] + Array("12 7B15".utf8) + [0x03])
  }

  @Test func sendsOnlyWhenTheTextChanges() {
    var encoder = TextLineProtocol(template: template)
    let first = frame(home: "12", away: " 7", period: "1")
    #expect(encoder.initialize(showing: first) == Array("12- 7 P1\r\n".utf8))
    #expect(encoder.update(to: first).isEmpty)
    // The brightness is not in the template: the text stays the same.
    #expect(encoder.update(to: frame(home: "12", away: " 7", period: "1", brightness: 3)).isEmpty)
    #expect(
      encoder.update(to: frame(home: "13", away: " 7", period: "1")) == Array("13- 7 P1\r\n".utf8))
    #expect(encoder.update(to: frame(home: "13", away: " 7", period: "1")).isEmpty)
  }

  @Test func initialiseAlwaysSendsTheText() {
    var encoder = TextLineProtocol(template: template)
    let line = frame(home: "12", away: " 7", period: "1")
    #expect(encoder.initialize(showing: line) == Array("12- 7 P1\r\n".utf8))
    #expect(encoder.initialize(showing: line) == Array("12- 7 P1\r\n".utf8))
  }

  @Test func blankAndUnblank() {
    var encoder = TextLineProtocol(template: template)
    let line = frame(home: "12", away: " 7", period: "1")
    var blanked = line
    blanked.isBlank = true
    _ = encoder.initialize(showing: line)
    #expect(encoder.update(to: blanked) == Array("  -   P \r\n".utf8))
    #expect(encoder.update(to: line) == Array("12- 7 P1\r\n".utf8))
  }

  @Test func neverAnswers() {
    #expect(TextLineProtocol(template: template).acknowledgement == nil)
  }
}
