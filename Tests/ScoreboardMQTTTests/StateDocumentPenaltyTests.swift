import ScoreboardCore
import ScoreboardMQTT
import TestExpectations
import Testing

/// Penalties in the state document: what a page reads, and what a mirror takes.
@Suite struct StateDocumentPenaltyTests {
  static let spec = ScoreboardSpec(
    fields: [
      FieldSpec(
        name: "game", label: "GAME", display: "main", position: 0, width: 4,
        kind: .clock(ClockFormat(role: .game, length: .seconds(1200))), defaultValue: 0),
      FieldSpec(
        name: "home-penalties", label: "PEN", display: "main", position: 4, width: 10,
        kind: .penalties(PenaltyFormat(team: "home", serving: 1)), defaultValue: 0),
    ],
    displays: [DisplayLayout(name: "main", cellCount: 14)])

  /// Two penalties of home (one serving at a time), the game clock running since 0.
  static func board() throws -> Scoreboard {
    var board = Scoreboard(spec: Self.spec)
    _ = try board.perform(.start(clock: nil), at: .zero)
    _ = try board.perform(
      .penalty(.add(team: "home", player: 17, length: .seconds(120))), at: .milliseconds(1000 * 10))
    _ = try board.perform(
      .penalty(.add(team: "home", player: 4, length: .seconds(300))), at: .milliseconds(1000 * 20))
    return board
  }

  @Test func carriesTheOpenPenalties() throws {
    let text = StateDocument.json(
      of: try Self.board(), at: .milliseconds(1000 * 40), wallClockMilliseconds: 1_000_000)
    let document = try JSONValue.parse(Array(text.utf8))
    let field = document["fields"]?["home-penalties"]
    #expect(field?["shown"]?.stringValue == "17 1:30 4 5:00")
    #expect(field?["game_clock"]?.stringValue == "game")
    #expect(document["fields"]?["game"]?["played_ms"]?.intValue == 40_000)
    guard case .array(let penalties)? = field?["penalties"] else {
      Issue.record("no penalties in \(text)")
      return
    }
    #expect(penalties.count == 2)
    #expect(penalties[0]["player"]?.intValue == 17)
    #expect(penalties[0]["remaining_ms"]?.intValue == 90_000)
    #expect(penalties[0]["state"]?.stringValue == "serving")
    #expect(penalties[1]["player"]?.intValue == 4)
    #expect(penalties[1]["remaining_ms"]?.intValue == 300_000)
    #expect(penalties[1]["state"]?.stringValue == "waiting")
  }

  /// A mirror takes the penalties and the game time played, and shows what the board
  /// shows from then on, however far its own monotonic clock is from the board's.
  @Test func aMirrorShowsThePenaltiesAsTheBoardDoes() throws {
    let board = try Self.board()
    let published = StateDocument.json(
      of: board, at: .milliseconds(1000 * 40), wallClockMilliseconds: 1_000_000 + 40_000)
    let ahead = Duration.seconds(5_000)
    let mirrored = try StateDocument.savedState(
      from: published, spec: Self.spec, at: .milliseconds(1000 * 40) + ahead,
      wallClockMilliseconds: 1_000_000 + 40_000)
    #expect(mirrored.skipped == [])
    var mirror = Scoreboard(spec: Self.spec)
    #expect(mirrored.state.apply(to: &mirror, at: .milliseconds(1000 * 40) + ahead) == [])
    for moment: Int64 in [40, 100, 129, 130, 131, 300, 429, 430, 500] {
      #expect(
        mirror.valueText(of: 1, at: .milliseconds(1000 * moment) + ahead)
          == board.valueText(of: 1, at: .milliseconds(1000 * moment)), "at \(moment) s")
    }
  }

  @Test(arguments: [
    #"{"fields":{"home-penalties":{"penalties":{}}}}"#,
    #"{"fields":{"home-penalties":{"penalties":[{"player":-1,"length_ms":1,"given_ms":0}]}}}"#,
    #"{"fields":{"home-penalties":{"penalties":[{"length_ms":1000,"given_ms":0}]}}}"#,
    #"{"fields":{"home-penalties":{"penalties":[7]}}}"#,
  ])
  func aMalformedListIsRefusedNamingTheField(payload: String) {
    let error = expectError(StateDocumentError.self) {
      try StateDocument.savedState(
        from: payload, spec: Self.spec, at: .milliseconds(0), wallClockMilliseconds: 0)
    }
    #expect(error?.description.contains("home-penalties") == true)
  }
}
