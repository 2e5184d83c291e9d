import ScoreboardMQTT
import Testing

@Suite struct JSONTextTests {
  @Test(
    arguments: [
      ("plain", #""plain""#), ("a\"b", #""a\"b""#), ("a\\b", #""a\\b""#),
      ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
      ("\u{01}\u{1F}\u{7F}", #""\u0001\u001F\u007F""#),
      ("Zürich 😀", "\"Zürich 😀\""), ("", #""""#),
      ("\u{80}\u{9F}é", "\"\u{80}\u{9F}é\""), ("Zürich \"1\"", #""Zürich \"1\"""#),
      ("tab\tat the end\t", #""tab\tat the end\t""#),
    ] as [(String, String)])
  func escapesStrings(text: String, json: String) throws {
    #expect(JSONText.string(text) == json)
    let parsed = try JSONValue.parse(json)
    #expect(parsed.stringValue == text)
  }

  @Test func writesNumbers() {
    #expect(JSONText.number(12) == "12")
    #expect(JSONText.number(-0.5) == "-0.5")
    #expect(JSONText.number(.infinity) == "null")
    #expect(JSONText.number(.nan) == "null")
  }

  @Test func writesObjectsAndArrays() throws {
    let text = JSONText.object([("b", "1"), ("a", JSONText.array(["true", JSONText.string("x")]))])
    #expect(text == #"{"b":1,"a":[true,"x"]}"#)
    let parsed = try JSONValue.parse(text)
    #expect(parsed["a"]?.elements?.count == 2)
  }
}
