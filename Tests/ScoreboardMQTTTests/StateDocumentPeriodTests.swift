import ScoreboardCore
import ScoreboardMQTT
import Testing

/// The scores by period in the state document: what a page reads as a box score, and
/// what a mirror takes.
@Suite struct StateDocumentPeriodTests {
  static let spec = ScoreboardSpec(
    fields: [
      FieldSpec(
        name: "game", label: "GAME", display: "main", position: 0, width: 4,
        kind: .clock(ClockFormat(role: .game, length: .seconds(600))), defaultValue: 0),
      FieldSpec(
        name: "home", label: "HOME", display: "main", position: 4, width: 3,
        kind: .number(NumberFormat(digits: 3)), defaultValue: 0),
      FieldSpec(
        name: "quarter", label: "QTR", display: "main", position: 7, width: 2,
        kind: .list(["1", "2", "3", "4", "OT"]), defaultValue: 0,
        periodLengths: [.seconds(600)], periodScores: ["home", "away"]),
      FieldSpec(
        name: "away", label: "AWAY", display: "main", position: 9, width: 3,
        kind: .number(NumberFormat(digits: 3)), defaultValue: 0),
    ],
    displays: [DisplayLayout(name: "main", cellCount: 12)])

  @Test func aBoxScoreAPageAndAMirrorRead() throws {
    var board = Scoreboard(spec: Self.spec)
    for action: Action in [
      .set(field: "home", value: "25"), .set(field: "away", value: "20"), .nextPeriod,
      .set(field: "home", value: "30"),
    ] {
      _ = try board.perform(action, at: .milliseconds(0))
    }
    let text = StateDocument.json(of: board, at: .milliseconds(0), wallClockMilliseconds: 0)
    #expect(
      text.contains(
        #""periods":[{"period":"1","points":{"home":25,"away":20},"totals":{"home":25,"away":20}},"#
          + #"{"period":"2","points":{"home":5,"away":0},"totals":{"home":30,"away":20}}]"#))
    let mirrored = try StateDocument.savedState(
      from: text, spec: Self.spec, at: .milliseconds(0), wallClockMilliseconds: 0)
    var mirror = Scoreboard(spec: Self.spec)
    #expect(mirrored.state.apply(to: &mirror) == [])
    #expect(mirror.scoresByPeriod.map(\.points) == board.scoresByPeriod.map(\.points))
  }

  @Test func theSetsWonAPageAndAMirrorRead() throws {
    func number(_ name: String, _ position: Int) -> FieldSpec {
      FieldSpec(
        name: name, label: name.uppercased(), display: "main", position: position, width: 2,
        kind: .number(NumberFormat(digits: 2)), defaultValue: 0)
    }
    var spec = ScoreboardSpec(
      fields: [
        number("home", 0), number("home-sets", 2), number("away-sets", 4), number("away", 6),
      ],
      displays: [DisplayLayout(name: "main", cellCount: 8)])
    spec.sets = SetRules(
      points: ["home", "away"], sets: ["home-sets", "away-sets"], winsAt: 25, winBy: 2)
    var board = Scoreboard(spec: spec)
    for action: Action in [
      .set(field: "home", value: "24"), .set(field: "away", value: "23"),
      .add(field: "home", amount: 1),
    ] {
      _ = try board.perform(action, at: .milliseconds(0))
    }
    let text = StateDocument.json(of: board, at: .milliseconds(0), wallClockMilliseconds: 0)
    #expect(text.contains(#""sets":[{"home":25,"away":23}]"#))
    let mirrored = try StateDocument.savedState(
      from: text, spec: spec, at: .milliseconds(0), wallClockMilliseconds: 0)
    var mirror = Scoreboard(spec: spec)
    #expect(mirrored.state.apply(to: &mirror) == [])
    #expect(mirror.finishedSets == [[25, 23]])
  }
}
