import ScoreboardCore
import Testing

/// The points of each set won: kept when a set ends, taken back by the undo of its last
/// point, cleared by a reset, in the state file and the status.
@Suite struct SetScoresTests {
  static var spec: ScoreboardSpec {
    func number(_ name: String, _ position: Int, digits: Int = 2) -> FieldSpec {
      FieldSpec(
        name: name, label: name.uppercased(), display: "main", position: position, width: digits,
        kind: .number(NumberFormat(digits: digits)), defaultValue: 0)
    }
    var spec = ScoreboardSpec(
      fields: [
        number("home", 0), number("home-sets", 2, digits: 1), number("away-sets", 3, digits: 1),
        number("away", 4),
      ],
      displays: [DisplayLayout(name: "main", cellCount: 6)])
    spec.sets = SetRules(
      points: ["home", "away"], sets: ["home-sets", "away-sets"], winsAt: 25, winBy: 2)
    return spec
  }

  /// Sets 25-23 and 22-25 played, 3-1 into the third.
  static func board() throws -> Scoreboard {
    var board = Scoreboard(spec: Self.spec)
    for action: Action in [
      .set(field: "home", value: "24"), .set(field: "away", value: "23"),
      .add(field: "home", amount: 1),
      .set(field: "home", value: "22"), .set(field: "away", value: "24"),
      .add(field: "away", amount: 1),
      .set(field: "home", value: "3"), .set(field: "away", value: "1"),
    ] {
      _ = try board.perform(action, at: .zero)
    }
    return board
  }

  @Test func eachSetWonIsKept() throws {
    let board = try Self.board()
    #expect(board.finishedSets == [[25, 23], [22, 25]])
    #expect(board.text(of: "home-sets") == "1")
    let status = ControlStatus(board, displays: [], keypads: [], stateFile: .none)
    #expect(status.line().contains(" sets=25/23,22/25"))
    #expect(try ControlStatus(parsing: status.line()) == status)
    #expect(status.json().contains(#""sets":[[25,23],[22,25]]"#))
  }

  @Test func undoOfTheLastPointBringsTheSetBack() throws {
    var board = try Self.board()
    _ = try board.perform(.set(field: "home", value: "24"), at: .zero)
    _ = try board.perform(.set(field: "away", value: "22"), at: .zero)
    _ = try board.perform(.add(field: "home", amount: 1), at: .zero)
    #expect(board.finishedSets.count == 3)
    _ = try board.perform(.undo, at: .zero)
    #expect(board.finishedSets == [[25, 23], [22, 25]])
    #expect(board.text(of: "home") == "24")
  }

  @Test func aCorrectionOfTheSetsWonKeepsNoSet() throws {
    var board = try Self.board()
    _ = try board.perform(.set(field: "home-sets", value: "2"), at: .zero)
    #expect(board.finishedSets.count == 2)
  }

  @Test func theStateFileKeepsThemAndAResetClearsThem() throws {
    var board = try Self.board()
    let text = SavedState(from: board).encoded()
    #expect(text.contains("set 25 23\nset 22 25\n"))
    var restored = Scoreboard(spec: Self.spec)
    #expect(try SavedState(parsing: text).apply(to: &restored) == [])
    #expect(restored.finishedSets == board.finishedSets)
    _ = board.resetAll(at: .zero)
    #expect(board.finishedSets == [])
    _ = try board.perform(.undo, at: .zero)
    #expect(board.finishedSets == [[25, 23], [22, 25]])
  }
}
