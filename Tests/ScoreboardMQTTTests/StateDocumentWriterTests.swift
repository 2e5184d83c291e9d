import ScoreboardCore
import ScoreboardMQTT
import TestExpectations
import Testing

/// A writer used again and again keeps the parts of the fields that did not change: each
/// document must still be the one a fresh writer would write.
@Suite struct StateDocumentWriterTests {
  /// A step of a game: actions at an instant (seconds), then a document.
  struct Step: Sendable, CustomStringConvertible {
    var actions: [Action]
    var second: Int64
    var description: String { "\(actions) at \(second) s" }
  }

  static let game: [Step] = [
    Step(actions: [], second: 0),
    Step(actions: [.set(field: "home", value: "12")], second: 1),
    Step(actions: [], second: 1),
    Step(actions: [.start(clock: "game")], second: 2),
    Step(actions: [.add(field: "away", amount: 3)], second: 3),
    Step(actions: [], second: 4),
    Step(actions: [.start(clock: "shot")], second: 5),
    Step(actions: [.stop(clock: nil)], second: 9),
    Step(actions: [], second: 12),
    Step(actions: [.set(field: "period", value: "2")], second: 13),
    Step(actions: [.set(field: "shot", value: "14")], second: 14),
    Step(actions: [.brightness(.to(3)), .blank(.on)], second: 15),
    Step(actions: [.undo], second: 16),
    Step(actions: [.start(clock: nil)], second: 17),
    // The game clock reaches its end (600 s) and stops there, without an action.
    Step(actions: [], second: 700),
    Step(actions: [.set(field: "home", value: "12")], second: 701),
  ]

  @Test func eachDocumentIsTheOneAFreshWriterWrites() throws {
    var board = Scoreboard(spec: MQTTFixtures.spec())
    var writer = StateDocumentWriter()
    for step in Self.game {
      let now = Instant.milliseconds(step.second * 1000)
      for action in step.actions {
        _ = try board.perform(action, at: now)
      }
      let wallClock = step.second * 1000 + StateDocumentTests.wallOffset
      let written = writer.json(of: board, at: now, wallClockMilliseconds: wallClock)
      let fresh = StateDocument.json(of: board, at: now, wallClockMilliseconds: wallClock)
      #expect(written == fresh, "\(step)")
    }
    // What the last document says, read back independently.
    let document = try JSONValue.parse(
      writer.json(
        of: board, at: .milliseconds(701_000),
        wallClockMilliseconds: 701_000 + StateDocumentTests.wallOffset))
    #expect(document["fields"]?["home"]?["value"]?.intValue == 12)
    #expect(document["fields"]?["away"]?["value"]?.intValue == 3)
    #expect(document["fields"]?["game"]?["clock"]?["time_ms"]?.intValue == 0)
    #expect(document["fields"]?["game"]?["clock"]?["running"]?.boolValue == false)
  }

  @Test func aRunningClockIsWrittenAgainAtEveryDocument() throws {
    var board = Scoreboard(spec: MQTTFixtures.spec())
    try board.run(.start(clock: "game"), at: .zero)
    var writer = StateDocumentWriter()
    for tenth: Int64 in [1, 2, 15, 16, 100] {
      let now = Instant.milliseconds(tenth * 100)
      let document = try JSONValue.parse(
        writer.json(of: board, at: now, wallClockMilliseconds: tenth * 100))
      #expect(document["fields"]?["game"]?["clock"]?["time_ms"]?.intValue == 600_000 - tenth * 100)
    }
  }

  @Test func aBoardWithOtherFieldsIsWrittenAfresh() throws {
    var writer = StateDocumentWriter()
    let before = Scoreboard(spec: MQTTFixtures.spec())
    _ = writer.json(of: before, at: .zero, wallClockMilliseconds: 0)
    // The same names, the period's options renamed: its part must not be the old one.
    var period = MQTTFixtures.period
    period.kind = .list(["Q1", "Q2", "Q3", "Q4", "OT"])
    var fields = before.spec.fields
    fields[2] = period
    let after = Scoreboard(spec: MQTTFixtures.spec(fields))
    let text = writer.json(of: after, at: .zero, wallClockMilliseconds: 0)
    #expect(text == StateDocument.json(of: after, at: .zero, wallClockMilliseconds: 0))
    let document = try JSONValue.parse(text)
    #expect(document["fields"]?["period"]?["shown"]?.stringValue == "Q1")
  }

  @Test func penaltiesAreWrittenAgainAsTheyRunDown() throws {
    let board = try StateDocumentPenaltyTests.board()
    var writer = StateDocumentWriter()
    for second: Int64 in [40, 41, 130, 131, 400] {
      let now = Instant.milliseconds(second * 1000)
      let written = writer.json(of: board, at: now, wallClockMilliseconds: second * 1000)
      #expect(
        written == StateDocument.json(of: board, at: now, wallClockMilliseconds: second * 1000),
        "at \(second) s")
    }
  }
}

extension StateDocumentWriterTests {
  @Test(arguments: [Int64.min, -1, 0, 9, 10, 1_764_662_006_800, Int64.max])
  func theWallClockIsWrittenAsItReads(wallClock: Int64) {
    var writer = StateDocumentWriter()
    let text = writer.json(
      of: Scoreboard(spec: MQTTFixtures.spec()), at: .zero, wallClockMilliseconds: wallClock)
    #expect(text.hasSuffix(#","published_at_ms":"# + String(wallClock) + "}"))
  }
}
