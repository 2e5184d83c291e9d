import ScoreboardCore
import ScoreboardMQTT
import TestExpectations
import Testing

@Suite struct StateDocumentTests {
  /// The wall clock of the publishing board reads this much more than its monotonic one.
  static let wallOffset: Int64 = 1_764_662_000_000

  /// A board with home 12, away 7, period OT, the game clock started at 5 s and the shot
  /// clock stopped at 14 s.
  static func playingBoard() throws -> Scoreboard {
    var board = Scoreboard(spec: MQTTFixtures.spec())
    try board.run(
      .set(field: "home", value: "12"), .set(field: "away", value: "7"),
      .set(field: "period", value: "OT"), .set(field: "shot", value: "14"),
      at: .milliseconds(1_000))
    try board.run(.start(clock: "game"), at: .milliseconds(5_000))
    return board
  }

  @Test func writesTheSchema() throws {
    let board = try Self.playingBoard()
    let now = Instant.milliseconds(6_800)
    let text = StateDocument.json(
      of: board, at: now, wallClockMilliseconds: 6_800 + Self.wallOffset)
    #expect(
      text == #"{"fields":{"home":{"shown":"12","value":12},"away":{"shown":"7","value":7},"#
        + #""period":{"shown":"OT","value":"OT"},"#
        + #""game":{"shown":"9:59","clock":{"time_ms":598200,"running":true,"#
        + #""started_at_ms":1764662005000,"time_at_start_ms":600000,"counts":"down","end_ms":0}},"#
        + #""shot":{"shown":"14","clock":{"time_ms":14000,"running":false,"started_at_ms":null,"#
        + #""time_at_start_ms":14000,"counts":"down","end_ms":0}}},"#
        + #""brightness":8,"blank":false,"published_at_ms":1764662006800}"#)
    let document = try JSONValue.parse(text)
    #expect(document["fields"]?.members?.map(\.key) == ["home", "away", "period", "game", "shot"])
    #expect(document["fields"]?["game"]?["clock"]?["time_ms"]?.intValue == 598_200)
    #expect(document["fields"]?["period"]?["value"]?.stringValue == "OT")
    #expect(document["published_at_ms"]?.intValue == 1_764_662_006_800)
  }

  @Test func showsTheCommittedValueWhileAnEntryIsTyped() throws {
    var board = try Self.playingBoard()
    try board.run(.select(field: "home"), .digit(9), at: .milliseconds(6_000))
    #expect(board.session != nil)
    let document = try JSONValue.parse(
      StateDocument.json(of: board, at: .milliseconds(6_000), wallClockMilliseconds: 0))
    #expect(document["fields"]?["home"]?["value"]?.intValue == 12)
    #expect(document["fields"]?["home"]?["shown"]?.stringValue == "12")
  }

  @Test func teamFoulsCarryTheirBonusLevel() throws {
    let fouls = FieldSpec(
      name: "fouls", label: "FOULS", display: "main", position: 0, width: 2,
      kind: .number(NumberFormat(digits: 2)), defaultValue: 0,
      teamFouls: TeamFoulRules(bonus: [7, 10]))
    var board = Scoreboard(
      spec: ScoreboardSpec(fields: [fouls], displays: [DisplayLayout(name: "main", cellCount: 2)]))
    func bonus() throws -> Int64? {
      try JSONValue.parse(StateDocument.json(of: board, at: .zero, wallClockMilliseconds: 0))[
        "fields"]?["fouls"]?["bonus"]?.intValue
    }
    #expect(try bonus() == 0)
    try board.run(.set(field: "fouls", value: "7"), at: .zero)
    #expect(try bonus() == 1)
    try board.run(.set(field: "fouls", value: "12"), at: .zero)
    #expect(try bonus() == 2)
  }

  @Test func aClockPastItsEndIsStoppedThere() throws {
    let board = try Self.playingBoard()
    let document = try JSONValue.parse(
      StateDocument.json(of: board, at: .milliseconds(700_000), wallClockMilliseconds: 0))
    let clock = document["fields"]?["game"]?["clock"]
    #expect(clock?["running"]?.boolValue == false)
    #expect(clock?["time_ms"]?.intValue == 0)
    #expect(clock?["started_at_ms"]?.isNull == true)
    #expect(document["fields"]?["game"]?["shown"]?.stringValue == "0.0")
  }

  @Test func aClockCountingUpEndsAtItsLength() throws {
    let spec = MQTTFixtures.spec([MQTTFixtures.game(direction: .up)], horns: [])
    var board = Scoreboard(spec: spec)
    try board.run(.start(clock: "game"), at: .milliseconds(0))
    let document = try JSONValue.parse(
      StateDocument.json(of: board, at: .milliseconds(61_500), wallClockMilliseconds: 100_000))
    let clock = document["fields"]?["game"]?["clock"]
    #expect(clock?["counts"]?.stringValue == "up")
    #expect(clock?["end_ms"]?.intValue == 600_000)
    #expect(clock?["time_ms"]?.intValue == 61_500)
    #expect(clock?["time_at_start_ms"]?.intValue == 0)
    #expect(clock?["started_at_ms"]?.intValue == 38_500)
    #expect(document["fields"]?["game"]?["shown"]?.stringValue == "1:01")
  }

  @Test func brightnessAndBlanking() throws {
    var board = Scoreboard(spec: MQTTFixtures.spec())
    try board.run(.brightness(.to(3)), .blank(.on), at: .zero)
    let document = try JSONValue.parse(
      StateDocument.json(of: board, at: .zero, wallClockMilliseconds: 0))
    #expect(document["brightness"]?.intValue == 3)
    #expect(document["blank"]?.boolValue == true)
  }

  /// A mirror whose monotonic clock is 40 000 s ahead of the publisher's takes the
  /// document 50 ms after it was written, and shows what the publisher shows from then on.
  @Test func aMirrorShowsWhatTheBoardShows() throws {
    let board = try Self.playingBoard()
    let published = StateDocument.json(
      of: board, at: .milliseconds(7_000), wallClockMilliseconds: 7_000 + Self.wallOffset)
    let mirrorAhead: Int64 = 40_000_000
    let arrival: Int64 = 7_050
    let mirrored = try StateDocument.savedState(
      from: published, spec: MQTTFixtures.spec(), at: .milliseconds(arrival + mirrorAhead),
      wallClockMilliseconds: arrival + Self.wallOffset)
    #expect(mirrored.skipped == [])
    #expect(mirrored.state.values == ["home": "12", "away": "7", "period": "OT"])
    #expect(mirrored.state.brightness == 8)
    #expect(mirrored.state.isBlanked == false)
    var mirror = Scoreboard(spec: MQTTFixtures.spec())
    #expect(mirrored.state.apply(to: &mirror) == [])
    for moment: Int64 in [7_050, 7_999, 12_345, 64_321, 604_999, 605_000, 700_000] {
      let original = Instant.milliseconds(moment)
      let copy = Instant.milliseconds(moment + mirrorAhead)
      for name in ["home", "away", "period", "game", "shot"] {
        let index = try #require(board.index(of: name))
        #expect(mirror.valueText(of: index, at: copy) == board.valueText(of: index, at: original))
        #expect(mirror.clockTime(index, at: copy) == board.clockTime(index, at: original))
      }
    }
    #expect(mirror.clocks[3]?.isRunning == true)
    #expect(mirror.clocks[4] == ClockState(time: .seconds(14)))
  }

  /// Time on the wall clock that passed since the start becomes time on the local one.
  @Test func theStartIsPutOnTheLocalClock() throws {
    let payload =
      #"{"fields":{"game":{"clock":{"time_ms":590000,"running":true,"#
      + #""started_at_ms":1000000,"time_at_start_ms":600000,"counts":"down","end_ms":0}}}}"#
    let mirrored = try StateDocument.savedState(
      from: payload, spec: MQTTFixtures.spec(), at: .milliseconds(50_000),
      wallClockMilliseconds: 1_010_000)
    #expect(
      mirrored.state.clocks["game"]
        == ClockState(time: .seconds(600), startedAt: .milliseconds(40_000)))
    #expect(mirrored.state.brightness == nil)
    #expect(mirrored.state.isBlanked == nil)
  }

  @Test func fieldsTheBoardLacksAreIgnored() throws {
    let payload = #"{"fields":{"guest":{"shown":"3","value":3},"home":{"value":4}}}"#
    let mirrored = try StateDocument.savedState(
      from: payload, spec: MQTTFixtures.spec(), at: .zero, wallClockMilliseconds: 0)
    #expect(mirrored.state.values == ["home": "4"])
    #expect(mirrored.skipped == [])
  }

  @Test func listValuesAreWrittenAsTheBoardHasThem() throws {
    let payload = #"{"fields":{"period":{"value":"ot"}}}"#
    let mirrored = try StateDocument.savedState(
      from: payload, spec: MQTTFixtures.spec(), at: .zero, wallClockMilliseconds: 0)
    #expect(mirrored.state.values == ["period": "OT"])
  }

  static let stoppedClock =
    #"{"time_ms":5000,"running":false,"started_at_ms":null,"time_at_start_ms":5000,"#
    + #""counts":"down","end_ms":0}"#

  /// Fields a board of `MQTTFixtures.spec()` cannot take, and which of them are skipped.
  /// (A list of its own: Swift 6.0 cannot type-check an interpolation within the
  /// arguments of `@Test`.)
  static let unfitFields: [(String, [String])] = [
    (#"{"home":{"value":"OT"}}"#, ["home"]),  // a list's value for a number
    (#"{"home":{"value":200}}"#, ["home"]),  // above the field's maximum
    (#"{"home":{"value":-1}}"#, ["home"]),  // below its minimum
    (#"{"period":{"value":5}}"#, ["period"]),  // a number for a list
    (#"{"period":{"value":"5"}}"#, ["period"]),  // not one of its options
    (#"{"home":{"clock":"# + stoppedClock + "}}", ["home"]),  // a clock for a number
    (#"{"game":{"value":12}}"#, ["game"]),  // a number for a clock
    (
      #"{"game":{"clock":{"time_ms":0,"running":false,"time_at_start_ms":0,"counts":"up"}}}"#,
      ["game"]
    ),  // counting the other way
    (#"{"game":{"value":1},"home":{"value":"x"},"away":{"value":3}}"#, ["game", "home"]),
  ]

  @Test(arguments: unfitFields)
  func fieldsOfAnotherKindAreSkipped(fields: String, skipped: [String]) throws {
    let mirrored = try StateDocument.savedState(
      from: #"{"fields":\#(fields)}"#, spec: MQTTFixtures.spec(), at: .zero,
      wallClockMilliseconds: 0)
    #expect(mirrored.skipped == skipped)
    for name in skipped {
      #expect(mirrored.state.values[name] == nil)
      #expect(mirrored.state.clocks[name] == nil)
    }
  }

  @Test(
    arguments: [
      ("[", "state document: JSON at byte 1: expected a value, found the end of the text"),
      ("", "state document: JSON at byte 0: expected a value, found the end of the text"),
      ("[1]", "state document: the document is not an object"),
      ("{}", #"state document: "fields" is missing"#),
      (#"{"fields":5}"#, #"state document: "fields" is not an object"#),
      (#"{"fields":{"home":5}}"#, "state document: field home: the field is not an object"),
      (#"{"fields":{"home":{}}}"#, #"state document: field home: "value" is missing"#),
      (
        #"{"fields":{"home":{"value":1.5}}}"#,
        #"state document: field home: "value" is not an integer"#
      ),
      (
        #"{"fields":{"home":{"value":1e400}}}"#,
        "state document: JSON at byte 27: the number is out of range"
      ),
      (
        #"{"fields":{"home":{"value":1e300}}}"#,
        #"state document: field home: "value" is not an integer"#
      ),
      (
        #"{"fields":{"home":{"value":-9223372036854775809}}}"#,
        #"state document: field home: "value" is not an integer"#
      ),
      (
        #"{"fields":{"home":{"value":9223372036854775807}}}"#,
        #"state document: field home: "value" is not an integer"#
      ),
      (
        #"{"fields":{"home":{"value":true}}}"#,
        #"state document: field home: "value" is not an integer or a string"#
      ),
      (
        #"{"fields":{"home":{"value":null}}}"#,
        #"state document: field home: "value" is not an integer or a string"#
      ),
      (
        #"{"fields":{"ho\u001Bme":{"value":null}}}"#,
        #"state document: field ho\u{1B}me: "value" is not an integer or a string"#
      ),
      (
        #"{"fields":{"game":{"clock":[]}}}"#,
        #"state document: field game: "clock" is not an object"#
      ),
      (
        #"{"fields":{"game":{"clock":{"running":true}}}}"#,
        #"state document: field game: "started_at_ms" is missing"#
      ),
      (
        #"{"fields":{"game":{"clock":{"running":"yes"}}}}"#,
        #"state document: field game: "running" is not true or false"#
      ),
      (
        #"{"fields":{"game":{"clock":{"running":true,"started_at_ms":1e20}}}}"#,
        #"state document: field game: "started_at_ms" is not an integer"#
      ),
      (
        #"{"fields":{"game":{"clock":{"running":false,"counts":"sideways"}}}}"#,
        #"state document: field game: "counts" is not "down" or "up""#
      ),
      (
        #"{"fields":{"game":{"clock":{"running":false,"counts":"down","time_ms":-1}}}}"#,
        #"state document: field game: "time_ms" is not a whole number of milliseconds, 0 or more"#
      ),
      (
        #"{"fields":{"game":{"clock":{"running":false,"counts":"down","time_ms":1}}}}"#,
        #"state document: field game: "time_at_start_ms" is missing"#
      ),
      (#"{"fields":{},"brightness":"8"}"#, #"state document: "brightness" is not an integer"#),
      (#"{"fields":{},"blank":0}"#, #"state document: "blank" is not true or false"#),
      (#"{"fields":{},"fields":{}}"#, #"state document: JSON at byte 13: the key "fields" again"#),
    ] as [(String, String)])
  func refusesWhatIsNotAStateDocument(payload: String, message: String) {
    let error = expectError(StateDocumentError.self) {
      try StateDocument.savedState(
        from: payload, spec: MQTTFixtures.spec(), at: .zero, wallClockMilliseconds: 0)
    }
    #expect(error?.description == message)
  }

  @Test func refusesDeepNesting() {
    let deep =
      #"{"fields":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
      + "}"
    let error = expectError(StateDocumentError.self) {
      try StateDocument.savedState(
        from: deep, spec: MQTTFixtures.spec(), at: .zero, wallClockMilliseconds: 0)
    }
    #expect(error?.problem == .malformed(JSONError(offset: 41, problem: .tooDeep(limit: 32))))
  }

  @Test func refusesBytesThatAreNotUTF8() {
    let error = expectError(StateDocumentError.self) {
      try StateDocument.savedState(
        from: Array(#"{"fields":{"a\#u{FF}":1}}"#.utf8).map { $0 == 0xC3 ? 0xFF : $0 },
        spec: MQTTFixtures.spec(), at: .zero, wallClockMilliseconds: 0)
    }
    #expect(error?.description.contains("invalid UTF-8") == true)
  }

  /// Extreme start instants saturate instead of trapping.
  @Test(
    arguments: [
      (9_007_199_254_740_991, Int64.min), (-9_007_199_254_740_991, Int64.max),
      (0, Int64.max), (Int64(0), Int64.min),
    ] as [(Int64, Int64)])
  func extremeInstantsDoNotTrap(startedAt: Int64, wallClock: Int64) throws {
    let payload =
      #"{"fields":{"game":{"clock":{"time_ms":9007199254740991,"running":true,"#
      + #""started_at_ms":\#(startedAt),"time_at_start_ms":9007199254740991,"counts":"down"}}}}"#
    let mirrored = try StateDocument.savedState(
      from: payload, spec: MQTTFixtures.spec(), at: Instant(nanoseconds: .max),
      wallClockMilliseconds: wallClock)
    let clock = try #require(mirrored.state.clocks["game"])
    #expect(clock.time == .seconds(600))
    #expect(clock.startedAt != nil)
    var mirror = Scoreboard(spec: MQTTFixtures.spec())
    _ = mirrored.state.apply(to: &mirror)
    _ = mirror.advance(to: Instant(nanoseconds: .max))
    _ = StateDocument.json(of: mirror, at: Instant(nanoseconds: .min), wallClockMilliseconds: .max)
    _ = StateDocument.json(of: mirror, at: Instant(nanoseconds: .max), wallClockMilliseconds: .min)
  }
}
