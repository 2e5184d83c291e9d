import ScoreboardCore
import ScoreboardWeb
import Testing

/// The frames the pages get: the displays' cells as the wire has them, and a new
/// document only when more than a running clock's time changed.
@Suite struct BoardFeedFramesTests {
  static let spec = ScoreboardSpec(
    fields: [
      FieldSpec(
        name: "home", label: "HOME", display: "score", position: 0, width: 2,
        kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
      FieldSpec(
        name: "game", label: "GAME", display: "score", position: 2, width: 4,
        kind: .clock(ClockFormat(role: .game, length: .seconds(600))), defaultValue: 0),
    ],
    displays: [DisplayLayout(name: "score", cellCount: 6, indicators: [.running(clock: "game")])],
    horns: [HornSpec(name: "main", clocks: ["game"])])

  private func at(_ seconds: Double) -> Instant { Instant(nanoseconds: Int64(seconds * 1e9)) }

  @Test func theCellsAreTheWiresWithColonsIndicatorsAndHorns() {
    let board = Scoreboard(spec: Self.spec)
    let (json, _) = BoardFeed.frames(of: board, at: at(1))
    // " 0" then 10:00: the cell before the colon has its point lit too (191 = 0x80|63).
    #expect(
      json
        == #"{"displays":{"score":{"cells":[0,63,6,191,63,63],"colons":[3],"blank":false,"#
        + #""brightness":8,"indicators":[false]}},"horns":{"main":false}}"#)
  }

  @Test func aRunningClockAloneMakesNoNewDocument() throws {
    var board = Scoreboard(spec: Self.spec)
    _ = try board.perform(.start(clock: "game"), at: at(1))
    let started = BoardFeed.frames(of: board, at: at(1))
    let later = BoardFeed.frames(of: board, at: at(4.5))
    #expect(started.json != later.json, "the cells show the clock's time")
    #expect(started.steady == later.steady, "but nothing the page cannot work out")
    _ = try board.perform(.add(field: "home", amount: 1), at: at(5))
    #expect(BoardFeed.frames(of: board, at: at(5)).steady != later.steady)
    _ = try board.perform(.stop(clock: "game"), at: at(6))
    let stopped = BoardFeed.frames(of: board, at: at(6))
    _ = try board.perform(.start(clock: "game"), at: at(7))
    #expect(BoardFeed.frames(of: board, at: at(7)).steady != stopped.steady)
  }
}
