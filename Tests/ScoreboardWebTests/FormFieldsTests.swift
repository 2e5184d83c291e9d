import ScoreboardWeb
import Testing

@Suite struct FormFieldsTests {
  @Test func fieldsAreDecoded() throws {
    let fields = try FormFields.parse(Array("code=012345&name=Scorer+phone%21&&empty=&bare".utf8))
    #expect(fields.map(\.name) == ["code", "name", "empty", "bare"])
    #expect(fields.map(\.value) == ["012345", "Scorer phone!", "", ""])
    #expect(try FormFields.value("name", in: Array("name=a%C3%A9".utf8)) == "aé")
    #expect(try FormFields.value("missing", in: Array("name=a".utf8)) == nil)
  }

  @Test(arguments: [
    ("code=%G1", "a bad percent-escape in the form"),
    ("code=1%", "a bad percent-escape in the form"),
    ("code=1%2", "a bad percent-escape in the form"),
    ("code=%00", "a NUL in the form"),
    ("name=%C3", "a form field that is not UTF-8"),
    ("name=%FF%FE", "a form field that is not UTF-8"),
  ])
  func badFormsAreRefused(form: String, problem: String) {
    #expect(throws: FormFields.Problem(description: problem)) {
      try FormFields.parse(Array(form.utf8))
    }
  }

  @Test func aValueBeyondTheLimitIsRefused() {
    let long = "name=" + String(repeating: "a", count: FormFields.valueLimit + 1)
    #expect(throws: FormFields.Problem.self) { try FormFields.parse(Array(long.utf8)) }
    let fits = "name=" + String(repeating: "a", count: FormFields.valueLimit)
    #expect(throws: Never.self) { try FormFields.parse(Array(fits.utf8)) }
  }

  @Test func cookiesAreFoundByName() {
    let header = "theme=dark; scoreboardd_device=0a1b ;other=\"x\"; empty="
    #expect(FormFields.cookie("scoreboardd_device", in: header) == "0a1b")
    #expect(FormFields.cookie("other", in: header) == "x")
    #expect(FormFields.cookie("empty", in: header) == "")
    #expect(FormFields.cookie("theme2", in: header) == nil)
    #expect(FormFields.cookie("scoreboardd_device", in: "xscoreboardd_device=1") == nil)
  }
}
