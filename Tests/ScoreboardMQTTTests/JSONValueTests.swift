import ScoreboardMQTT
import TestExpectations
import Testing

@Suite struct JSONValueTests {
  @Test func readsEveryKindOfValue() throws {
    let value = try JSONValue.parse(
      #" {"a":null,"b":[true,false],"c":-12.5e1,"d":"x","e":{},"f":[]} "#)
    #expect(
      value
        == .object([
          .init("a", .null), .init("b", .array([.bool(true), .bool(false)])),
          .init("c", .number(-125)), .init("d", .string("x")), .init("e", .object([])),
          .init("f", .array([])),
        ]))
    #expect(value["a"]?.isNull == true)
    #expect(value["d"]?.stringValue == "x")
    #expect(value["b"]?.elements?.first?.boolValue == true)
    #expect(value["missing"] == nil)
    #expect(value["d"]?["a"] == nil)
  }

  @Test func keepsTheOrderOfMembers() throws {
    let value = try JSONValue.parse(#"{"z":1,"a":2,"m":3}"#)
    #expect(value.members?.map(\.key) == ["z", "a", "m"])
    #expect(value.jsonText == #"{"z":1,"a":2,"m":3}"#)
  }

  @Test func readsEscapes() throws {
    let value = try JSONValue.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#)
    #expect(value.stringValue == "\"\\/\u{08}\u{0C}\n\r\tAé€😀")
  }

  @Test func readsUTF8AsItIs() throws {
    let value = try JSONValue.parse(#""Zürich – 😀""#)
    #expect(value.stringValue == "Zürich – 😀")
  }

  @Test(
    arguments: [
      ("0", 0), ("-0", 0), ("12", 12), ("1e3", 1000), ("-7", -7), ("2.0", 2),
      ("9007199254740991", 9_007_199_254_740_991), ("-9007199254740991", -9_007_199_254_740_991),
    ] as [(String, Int64)])
  func integersAreExact(text: String, integer: Int64) throws {
    let value = try JSONValue.parse(text)
    #expect(value.intValue == integer)
  }

  @Test(
    arguments: [
      "1.5", "9007199254740992", "9223372036854775807", "9223372036854775808",
      "-9223372036854775809", "1e300", "\"1\"", "true", "null",
    ] as [String])
  func onlyExactIntegersAreIntegers(text: String) throws {
    let value = try JSONValue.parse(text)
    #expect(value.intValue == nil)
  }

  @Test(
    arguments: [
      ("", 0, "expected a value, found the end of the text"),
      ("[", 1, "expected a value, found the end of the text"),
      ("[1,]", 3, "expected a value, found ']'"),
      ("[1 2]", 3, "expected ',' or ']', found '2'"),
      ("{\"a\":1,}", 7, "expected a key in quotes, found '}'"),
      ("{\"a\" 1}", 5, "expected ':' after the key, found '1'"),
      ("{a:1}", 1, "expected a key in quotes, found 'a'"),
      ("{\"a\":1 \"b\":2}", 7, "expected ',' or '}', found '\"'"),
      ("{\"a\":1,\"a\":2}", 7, "the key \"a\" again"),
      ("01", 1, "expected '.', 'e' or the end of the number (no leading zeros), found '1'"),
      ("1.", 2, "expected a digit, found the end of the text"),
      ("-", 1, "expected a digit, found the end of the text"),
      ("+1", 0, "expected a value, found '+'"),
      ("1e", 2, "expected a digit, found the end of the text"),
      ("1e400", 0, "the number is out of range"),
      ("-1e400", 0, "the number is out of range"),
      ("NaN", 0, "expected a value, found 'N'"),
      ("tru", 0, "expected a value, found 't'"),
      ("nul", 0, "expected a value, found 'n'"),
      ("\"abc", 4, "expected '\"' to end the string, found the end of the text"),
      ("\"a\nb\"", 2, "a control character in a string (it must be escaped)"),
      ("\"\\x\"", 2, "expected an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX, found 'x'"),
      ("\"\\u12\"", 5, "expected a hexadecimal digit, found '\"'"),
      ("\"\\ud83d\"", 1, "a \\u escape of half a surrogate pair without the other half"),
      ("\"\\ud83d\\u0041\"", 1, "a \\u escape of half a surrogate pair without the other half"),
      ("\"\\ude00\"", 1, "a \\u escape of half a surrogate pair without the other half"),
      ("1 2", 2, "expected the end of the text, found '2'"),
      ("{} x", 3, "expected the end of the text, found 'x'"),
    ] as [(String, Int, String)])
  func refusesWhatIsNotJSON(text: String, offset: Int, message: String) {
    let error = expectError(JSONError.self) { try JSONValue.parse(text) }
    #expect(error?.offset == offset)
    #expect(error?.description == "JSON at byte \(offset): \(message)")
  }

  @Test(
    arguments: [
      [0x22, 0xC3, 0x22],  // a lead byte without its continuation
      [0x22, 0xC0, 0x80, 0x22],  // an overlong NUL
      [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
      [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // past U+10FFFF
      [0x22, 0x80, 0x22],  // a continuation byte alone
      [0x22, 0xFF, 0x22],
    ] as [[UInt8]])
  func refusesInvalidUTF8(bytes: [UInt8]) {
    let error = expectError(JSONError.self) { try JSONValue.parse(bytes) }
    #expect(error?.problem == .invalidUTF8)
    #expect(error?.offset == 1)
  }

  @Test func showsBytesThatAreNotPrintable() {
    let error = expectError(JSONError.self) { try JSONValue.parse([0xC3, 0xA9]) }
    #expect(error?.description == "JSON at byte 0: expected a value, found byte 0xC3")
  }

  @Test func limitsTheNesting() throws {
    let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    let parsed = try JSONValue.parse(deepest)
    #expect(parsed.elements?.count == 1)
    let tooDeep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
    let error = expectError(JSONError.self) { try JSONValue.parse(tooDeep) }
    #expect(error?.problem == .tooDeep(limit: 32))
    #expect(error?.offset == 32)
    let objects = String(repeating: #"{"a":"#, count: 33) + "1" + String(repeating: "}", count: 33)
    let objectError = expectError(JSONError.self) { try JSONValue.parse(objects) }
    #expect(objectError?.problem == .tooDeep(limit: 32))
  }

  @Test func limitsTheSize() throws {
    let long = "\"" + String(repeating: "a", count: 100) + "\""
    let parsed = try JSONValue.parse(long, maximumBytes: 102)
    #expect(parsed.stringValue?.count == 100)
    let error = expectError(JSONError.self) { try JSONValue.parse(long, maximumBytes: 101) }
    #expect(error?.problem == .tooLong(limit: 101))
    let huge = "[" + String(repeating: "1,", count: 40_000) + "1]"
    let hugeError = expectError(JSONError.self) { try JSONValue.parse(huge) }
    #expect(hugeError?.problem == .tooLong(limit: JSONValue.maximumBytes))
  }

  @Test func writesWhatItReads() throws {
    let text = #"{"a":[1,-2.5,"x\"y\\z\n\u0001"],"b":{"c":null,"d":true}}"#
    let value = try JSONValue.parse(text)
    #expect(value.jsonText == text)
    let again = try JSONValue.parse(value.jsonText)
    #expect(again == value)
  }
}
