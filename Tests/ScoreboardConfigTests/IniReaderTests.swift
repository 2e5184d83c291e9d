import Testing

@testable import ScoreboardConfig

@Suite struct IniReaderTests {
  /// A line under `[s]`, and the key and value read from it.
  @Test(arguments: [
    ("key = value", "key", "value"),
    ("key=value", "key", "value"),
    ("key: value", "key", "value"),
    ("key = a = b", "key", "a = b"),
    ("key = a:b", "key", "a:b"),
    ("key = a;b", "key", "a;b"),
    ("key = a ;b", "key", "a"),
    ("key =;b", "key", ";b"),
    ("key = ;b", "key", ""),
    ("key = a#b", "key", "a#b"),
    ("key = a #b", "key", "a"),
    ("key = #b", "key", ""),
    ("key =\t value \t", "key", "value"),
    ("key a = b", "key a", "b"),
  ])
  func readsKeyAndValue(line: String, key: String, value: String) {
    let document = IniReader.read("[s]\n\(line)\n", file: "t.conf")
    #expect(document.diagnostics == [])
    #expect(document.sections.first?.entries == [IniEntry(key: key, value: value, line: 2)])
  }

  /// A line under `[s]`, and what is reported about it.
  @Test(arguments: [
    ("value", "t.conf:2: [s]: expected 'key = value', found \"value\""),
    ("key ;= value", "t.conf:2: [s]: expected 'key = value', found \"key ;= value\""),
    ("= value", "t.conf:2: [s]: expected a key before '=', found nothing"),
    ("[s2", "t.conf:2: expected ']' to end the section header, found \"[s2\""),
    ("[s2] x", "t.conf:2: [s2]: expected nothing after ']', found \"x\""),
  ])
  func reportsMalformedLines(line: String, diagnostic: String) {
    let document = IniReader.read("[s]\n\(line)\n", file: "t.conf")
    #expect(document.diagnostics.map(\.description) == [diagnostic])
  }

  @Test func reportsIndentedLinesAfterAKeyOnly() {
    let document = IniReader.read("[s]\n  a = 1\n  b = 2\n[t]\n", file: "t.conf")
    #expect(document.sections.first?.entries == [IniEntry(key: "a", value: "1", line: 2)])
    #expect(
      document.diagnostics.map(\.description) == [
        "t.conf:3: [s]: indented line; values cannot continue on the next line"
      ])
  }

  @Test func countsLinesOfEveryEnding() {
    let document = IniReader.read("\u{FEFF}[a]\r\nk = 1\r\n\n[b]", file: "t.conf")
    #expect(document.sections.map(\.title) == ["a", "b"])
    #expect(document.sections.map(\.line) == [1, 4])
    #expect(document.lineCount == 4)
  }

  @Test func keepsSectionsWithoutKeys() {
    let document = IniReader.read("[a]\n[ b   c ]\n", file: "t.conf")
    #expect(document.sections.map(\.title) == ["a", "b c"])
    #expect(document.sections.allSatisfy { $0.entries.isEmpty })
  }
}
