import ScoreboardCore
import Testing

@Suite struct TextTemplateTests {
  static let frame = Frame(
    cells: [], brightness: 9, fieldTexts: ["home": "12", "away": " 7", "period": "OT"])

  @Test(arguments: [
    ("{home}-{away} P{period}\\r\\n", "12- 7 POT\r\n"),
    ("\\x02{home}{away}\\x03", "\u{02}12 7\u{03}"),
    ("{{{home}}} b{brightness}\\t\\\\", "{12} b9\t\\"),
    ("no fields", "no fields"),
  ])
  func rendersFieldTextsAndEscapes(template: String, expected: String) throws {
    #expect(try TextTemplate(parsing: template).render(Self.frame) == Array(expected.utf8))
  }

  @Test func aBlankFrameRendersSpacesAsWideAsTheFields() throws {
    var blank = Self.frame
    blank.isBlank = true
    #expect(try TextTemplate(parsing: "[{home}|{period}]").render(blank) == Array("[  |  ]".utf8))
  }

  @Test func fieldNamesAreListedInOrder() throws {
    #expect(try TextTemplate(parsing: "{away}{brightness}{home}").fieldNames == ["away", "home"])
  }

  @Test(arguments: [
    ("{home", "'{' without a closing '}'"),
    ("{}", "'{}' does not name a field"),
    ("a}b", "'}' without an opening '{' (write '}}' for a brace)"),
    ("\\q", "unknown escape '\\q'; expected \\r, \\n, \\t, \\\\ or \\xHH"),
    ("\\x4", "'\\x' needs two hex digits, as in '\\x02'"),
    ("end\\", "'\\' at the end; write '\\\\' for a backslash"),
  ])
  func rejectsMalformedTemplates(template: String, message: String) {
    #expect(throws: TemplateSyntaxError(description: message)) {
      try TextTemplate(parsing: template)
    }
  }
}

@Suite struct FieldTextTests {
  @Test func framesCarryWhatEachFieldShowsAsText() throws {
    var scenario = Scenario()
    try scenario.at(0, .set(field: "home", value: "7"), .set(field: "period", value: "OT"))
    let frame = Renderer.frames(of: scenario.board, at: .zero)[0]
    #expect(frame.fieldTexts == ["home": " 7", "away": "00", "period": "OT"])
    #expect(frame.text == " 7 000t", "the cells read 0t, the text keeps OT")
  }

  @Test func theCursorAndFlashesShowInTheText() throws {
    var scenario = Scenario()
    try scenario.at(0, .select(field: "period"))
    #expect(
      Renderer.frames(of: scenario.board, at: .milliseconds(100))[0].fieldTexts["period"] == " 1")
    #expect(
      Renderer.frames(of: scenario.board, at: .milliseconds(600))[0].fieldTexts["period"] == "  ")
    try scenario.at(700, .select(field: "home"), .digit(1))
    #expect(
      Renderer.frames(of: scenario.board, at: .milliseconds(700))[0].fieldTexts["home"] == "10")
    #expect(
      Renderer.frames(of: scenario.board, at: .milliseconds(1_200))[0].fieldTexts["home"] == "1 ")
  }
}
