import ScoreboardMQTT
import TestExpectations
import Testing

@Suite struct CommandMessageTests {
  static func message(_ payload: String, correlationData: [UInt8]? = nil) throws
    -> CommandMessage
  {
    try CommandMessage(payload: Array(payload.utf8), correlationData: correlationData)
  }

  @Test(
    arguments: [
      ("add home +1", "add home +1"), ("add home +1\n", "add home +1"),
      ("add home +1\r\n", "add home +1"), ("set\thome 3", "set\thome 3"), ("  undo ", "  undo "),
    ] as [(String, String)])
  func aPlainPayloadIsTheLine(payload: String, line: String) throws {
    let message = try Self.message(payload)
    #expect(message == CommandMessage(id: nil, line: line, form: .plain))
  }

  @Test func aJSONPayloadHasAnIdAndARequest() throws {
    let message = try Self.message(#" {"id":"abc","request":"add home +1"}"#)
    #expect(message == CommandMessage(id: "abc", line: "add home +1", form: .json))
    let withoutID = try Self.message(#"{"request":"undo","id":null}"#)
    #expect(withoutID == CommandMessage(id: nil, line: "undo", form: .json))
  }

  @Test func correlationDataIsAnId() throws {
    let text = try Self.message("undo", correlationData: Array("req-7".utf8))
    #expect(text.id == "req-7")
    let binary = try Self.message("undo", correlationData: [0x00, 0x1F, 0xFF])
    #expect(binary.id == "0x001fff")
    let empty = try Self.message("undo", correlationData: [])
    #expect(empty.id == nil)
    let both = try Self.message(#"{"id":"abc","request":"undo"}"#, correlationData: [0x31])
    #expect(both.id == "abc")
    let jsonWithoutID = try Self.message(#"{"request":"undo"}"#, correlationData: [0x31])
    #expect(jsonWithoutID.id == "1")
  }

  @Test(
    arguments: [
      ("", "the payload is empty"),
      ("\n", "expected a request, found nothing; try 'help'"),
      ("   ", "expected a request, found nothing; try 'help'"),
      ("add home +1\nreset", "the request contains a control character"),
      ("add home\u{1B}[2J", "the request contains a control character"),
      ("undo\r", "the request contains a control character"),
      ("undo\u{85}", "the request contains a control character"),
      (#"{"id":"abc"}"#, #"the JSON payload has no "request""#),
      (#"{"request":5}"#, #""request" is not a string"#),
      (#"{"request":"undo","id":7}"#, #""id" is not a string"#),
      (#"{"request":"undo","id":"a\nb"}"#, "the id contains a control character"),
      (#"{"request":"undo\nreset"}"#, "the request contains a control character"),
      (#"{"request":""}"#, "expected a request, found nothing; try 'help'"),
      (#"{"request":"undo""#, "JSON at byte 17: expected ',' or '}', found the end of the text"),
      (
        #"{"request":{"a":{"b":1}}}"#,
        "JSON at byte 16: arrays and objects nest deeper than 2 levels"
      ),
      (#"{"request":"undo"} x"#, "JSON at byte 19: expected the end of the text, found 'x'"),
    ] as [(String, String)])
  func refusesWhatIsNotARequest(payload: String, message: String) {
    let error = expectError(CommandMessageError.self) { try Self.message(payload) }
    #expect(error?.description == message)
  }

  @Test func refusesLongPayloads() throws {
    let longest = try Self.message(String(repeating: "a", count: 512))
    #expect(longest.line.utf8.count == 512)
    let error = expectError(CommandMessageError.self) {
      try Self.message(String(repeating: "a", count: 513))
    }
    #expect(error == .tooLong(bytes: 513, limit: 512))
    #expect(error?.description == "the payload has 513 bytes; at most 512 are read")
    let correlation = expectError(CommandMessageError.self) {
      try Self.message("undo", correlationData: Array(repeating: 0x41, count: 129))
    }
    #expect(correlation == .correlationDataTooLong(bytes: 129, limit: 128))
  }

  @Test(arguments: [[0xFF], [0x75, 0x6E, 0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80]] as [[UInt8]])
  func refusesBytesThatAreNotUTF8(payload: [UInt8]) {
    let error = expectError(CommandMessageError.self) {
      try CommandMessage(payload: payload)
    }
    #expect(error == .notUTF8)
  }

  @Test func acceptsUTF8() throws {
    let message = try Self.message("set team Zürich")
    #expect(message.line == "set team Zürich")
  }

  @Test func repliesInTheFormOfTheRequest() {
    let plain = CommandMessage(id: "req-7", line: "add home +1", form: .plain)
    #expect(plain.replyPayload("ok home 13") == "ok home 13")
    let json = CommandMessage(id: "a\"b", line: "add home +1", form: .json)
    #expect(json.replyPayload("ok home 13") == #"{"id":"a\"b","reply":"ok home 13"}"#)
    let jsonWithoutID = CommandMessage(line: "undo", form: .json)
    #expect(
      jsonWithoutID.replyPayload("error nothing to undo") == #"{"reply":"error nothing to undo"}"#)
  }
}
