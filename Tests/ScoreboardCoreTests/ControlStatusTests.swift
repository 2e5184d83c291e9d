import ScoreboardCore
import Testing

@Suite struct ControlStatusTests {
  static let example = ControlStatus(
    fields: [
      .init(name: "home", text: "12"), .init(name: "away", text: "7"),
      .init(name: "period", text: "OT"),
    ],
    brightness: 8, isBlanked: false, editing: nil,
    displays: [.init(name: "main", isOnline: true)],
    keypads: [.init(name: "numpad", isOnline: true)], stateFile: .saved)

  @Test func lineAsDocumented() {
    #expect(
      Self.example.line()
        == "ok home=12 away=7 period=OT brightness=8 blank=off editing=- "
        + "displays=main:online keypads=numpad:online state-file=saved")
  }

  @Test(arguments: [
    (ControlStatus.StateFile.saved, "state-file=saved"), (.none, "state-file=none"),
    (
      .failing(since: "2026-12-01T10:32:05+01:00"),
      "state-file=failing-since-2026-12-01T10:32:05+01:00"
    ),
  ])
  func stateFileWord(stateFile: ControlStatus.StateFile, word: String) throws {
    var status = Self.example
    status.stateFile = stateFile
    #expect(status.line().hasSuffix(" " + word))
    #expect(try ControlStatus(parsing: status.line()).stateFile == stateFile)
  }

  @Test(arguments: [
    example,
    ControlStatus(
      fields: [], brightness: 0, isBlanked: true, editing: "home", displays: [], keypads: [],
      stateFile: .none),
    ControlStatus(
      fields: [.init(name: "brightness", text: "3"), .init(name: "blank", text: "-1")],
      brightness: 15, isBlanked: true, editing: "brightness",
      displays: [.init(name: "main", isOnline: false), .init(name: "side", isOnline: true)],
      keypads: [.init(name: "numpad", isOnline: false), .init(name: "buttons", isOnline: true)],
      stateFile: .failing(since: "2026-12-01T10:32:05Z")),
    ControlStatus(
      fields: [.init(name: "score", text: "a=b")], brightness: 1, isBlanked: false,
      editing: nil, displays: [.init(name: "main", isOnline: true)], keypads: [],
      stateFile: .saved),
  ])
  func lineRoundTrips(status: ControlStatus) throws {
    #expect(try ControlStatus(parsing: status.line()) == status)
  }

  @Test(arguments: [
    ("error no", "expected a status line 'ok ...', found 'error no'"),
    (
      "ok home=1 brightness=8",
      "expected a status line ending in brightness=... blank=... editing=... displays=... "
        + "keypads=... state-file=..., found 'ok home=1 brightness=8'"
    ),
    (
      "ok home brightness=8 blank=off editing=- displays=- keypads=- state-file=saved",
      "expected NAME=VALUE, found 'home'"
    ),
    (
      "ok brightness=8 blank=off editing=- keypads=- displays=- state-file=saved",
      "expected displays=..., found 'keypads=-'"
    ),
    (
      "ok brightness=16 blank=off editing=- displays=- keypads=- state-file=saved",
      "expected brightness=0-15, found 'brightness=16'"
    ),
    (
      "ok brightness=8 blank=yes editing=- displays=- keypads=- state-file=saved",
      "expected blank=on or blank=off, found 'blank=yes'"
    ),
    (
      "ok brightness=8 blank=on editing=- displays=main keypads=- state-file=saved",
      "expected displays=NAME:online|offline,..., found 'displays=main'"
    ),
    (
      "ok brightness=8 blank=on editing=- displays=- keypads=a:online, state-file=saved",
      "expected keypads=NAME:online|offline,..., found 'keypads=a:online,'"
    ),
    (
      "ok brightness=8 blank=on editing=- displays=- keypads=- state-file=failing-since-",
      "expected state-file=saved, none or failing-since-TIME, found 'state-file=failing-since-'"
    ),
    (
      "ok brightness=8 blank=on editing=- displays=- keypads=- state=saved",
      "expected state-file=..., found 'state=saved'"
    ),
  ])
  func rejectsMalformedLines(line: String, message: String) {
    #expect(throws: ControlSyntaxError(description: message)) {
      try ControlStatus(parsing: line)
    }
  }

  @Test func statusOfAScoreboard() throws {
    var board = Scoreboard(spec: Fixtures.spec())
    _ = try board.perform(.set(field: "home", value: "12"), at: .milliseconds(0))
    _ = try board.perform(.set(field: "period", value: "OT"), at: .milliseconds(0))
    _ = try board.perform(.select(field: "away"), at: .milliseconds(0))
    _ = try board.perform(.digit(4), at: .milliseconds(0))
    let status = ControlStatus(
      board, displays: [.init(name: "main", isOnline: true)],
      keypads: [.init(name: "numpad", isOnline: false)], stateFile: .saved)
    #expect(
      status.line()
        == "ok home=12 away=0 period=OT brightness=8 blank=off editing=away "
        + "displays=main:online keypads=numpad:offline state-file=saved",
      "the typed entry is not a value yet")
  }

  @Test func jsonAsDocumented() {
    #expect(
      Self.example.json()
        == #"{"fields":{"home":"12","away":"7","period":"OT"},"brightness":8,"blank":false,"#
        + #""editing":null,"displays":{"main":{"online":true}},"#
        + #""keypads":{"numpad":{"online":true}},"stateFile":{"status":"saved"}}"#)
  }

  @Test func jsonParsesBackToTheStatus() throws {
    let status = ControlStatus(
      fields: [.init(name: "home", text: "12"), .init(name: "period", text: "OT")],
      brightness: 3, isBlanked: true, editing: "home", displays: [],
      keypads: [.init(name: "numpad", isOnline: false)],
      stateFile: .failing(since: "2026-12-01T10:32:05+01:00"))
    let json = try JSONValue(parsing: status.json())
    #expect(json["fields"] == .object([("home", .string("12")), ("period", .string("OT"))]))
    #expect(json["brightness"] == .number(3))
    #expect(json["blank"] == .bool(true))
    #expect(json["editing"] == .string("home"))
    #expect(json["displays"] == .object([]))
    #expect(json["keypads"] == .object([("numpad", .object([("online", .bool(false))]))]))
    #expect(
      json["stateFile"]
        == .object([
          ("status", .string("failing")), ("since", .string("2026-12-01T10:32:05+01:00")),
        ]))
  }

  @Test(arguments: [
    "plain", "say \"hi\"", #"back\slash"#, "tab\there", "line\nbreak", "cr\rhere",
    "bell\u{7}nul\u{0}esc\u{1B}unit\u{1F}", "del\u{7F}", "ünïcødé ⚽️ 𝟙𝟚", "/slash/", "",
  ])
  func jsonEscapesEveryString(text: String) throws {
    let status = ControlStatus(
      fields: [.init(name: text, text: text)], brightness: 0, isBlanked: false, editing: text,
      displays: [.init(name: text, isOnline: true)], keypads: [], stateFile: .saved)
    let json = status.json()
    #expect(!json.unicodeScalars.contains { $0.value < 0x20 }, "no raw control characters")
    let decoded = try JSONValue(parsing: json)
    #expect(decoded["fields"] == .object([(text, .string(text))]))
    #expect(decoded["editing"] == .string(text))
    #expect(decoded["displays"] == .object([(text, .object([("online", .bool(true))]))]))
  }

  @Test func jsonEscapesControlCharactersAsDocumented() {
    let status = ControlStatus(
      fields: [.init(name: "a", text: "\"\\\n\r\t\u{1}\u{1F}")], brightness: 0,
      isBlanked: false, editing: nil, displays: [], keypads: [], stateFile: .none)
    #expect(status.json().hasPrefix(#"{"fields":{"a":"\"\\\n\r\t\u0001\u001F"},"#))
  }
}
