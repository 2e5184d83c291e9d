import ScoreboardCore
import TestExpectations
import Testing

/// The scores of each period: taken when next-period ends one, undone with it, cleared
/// by a reset, kept in the state file and shown in the status.
@Suite struct PeriodScoresTests {
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
        periodLengths: [.seconds(600), .seconds(600), .seconds(600), .seconds(600), .seconds(300)],
        periodScores: ["home", "away"]),
      FieldSpec(
        name: "away", label: "AWAY", display: "main", position: 9, width: 3,
        kind: .number(NumberFormat(digits: 3)), defaultValue: 0),
    ],
    displays: [DisplayLayout(name: "main", cellCount: 12)])

  /// Two quarters played (25-20, then 18-22) and 7-3 into the third.
  static func board() throws -> Scoreboard {
    var board = Scoreboard(spec: Self.spec)
    for action: Action in [
      .set(field: "home", value: "25"), .set(field: "away", value: "20"), .nextPeriod,
      .set(field: "home", value: "43"), .set(field: "away", value: "42"), .nextPeriod,
      .set(field: "home", value: "50"), .set(field: "away", value: "45"),
    ] {
      _ = try board.perform(action, at: .zero)
    }
    return board
  }

  @Test func eachPeriodHasItsPoints() throws {
    let board = try Self.board()
    #expect(board.scoresByPeriod.map(\.period) == [0, 1, 2])
    #expect(board.scoresByPeriod.map(\.points) == [[25, 20], [18, 22], [7, 3]])
    let status = ControlStatus(board, displays: [], keypads: [], stateFile: .none)
    #expect(status.periods == ["1:25/20", "2:18/22", "3:7/3"])
    #expect(status.line().contains(" periods=1:25/20,2:18/22,3:7/3"))
    #expect(try ControlStatus(parsing: status.line()) == status)
    #expect(status.json().contains(#""periods":[{"period":"1","points":[25,20]},"#))
  }

  @Test func undoTakesBackTheEndOfAPeriod() throws {
    var board = try Self.board()
    _ = try board.perform(.nextPeriod, at: .zero)
    #expect(board.finishedPeriods.count == 3)
    _ = try board.perform(.undo, at: .zero)
    #expect(board.finishedPeriods.count == 2)
    #expect(board.scoresByPeriod.last?.points == [7, 3])
  }

  @Test func aResetClearsThemAndUndoBringsThemBack() throws {
    var board = try Self.board()
    _ = board.resetAll(at: .zero)
    #expect(board.scoresByPeriod.map(\.points) == [[0, 0]])
    _ = try board.perform(.undo, at: .zero)
    #expect(board.scoresByPeriod.map(\.points) == [[25, 20], [18, 22], [7, 3]])
  }

  @Test func theStateFileKeepsThem() throws {
    let board = try Self.board()
    let text = SavedState(from: board).encoded()
    #expect(text.contains("period 1 25 20\nperiod 2 43 42\n"))
    var restored = Scoreboard(spec: Self.spec)
    #expect(try SavedState(parsing: text).apply(to: &restored) == [])
    #expect(restored.finishedPeriods == board.finishedPeriods)
  }

  @Test(arguments: [
    "version 2\nperiod 1\n", "version 2\nperiod 1 x\n", "version 2\nperiod 1 -2 3\n",
  ])
  func malformedPeriodLinesAreRefused(text: String) {
    let error = expectError(SavedStateError.self) { try SavedState(parsing: text) }
    #expect(error?.description.hasPrefix("line 2: expected 'period'") == true)
  }
}
