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
}
