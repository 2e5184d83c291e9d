import ScoreboardCore
import TestExpectations
import Testing

/// Penalties as game time played: their schedule, a restart and a power cut, the state
/// file's lines, and the requests that are refused.
@Suite struct PenaltyTests {
  static let spec = ScoreboardSpec(
    fields: [
      FieldSpec(
        name: "game", label: "GAME", display: "main", position: 0, width: 4,
        kind: .clock(ClockFormat(role: .game, length: .seconds(1200))), defaultValue: 0),
      FieldSpec(
        name: "home-penalties", label: "PEN", display: "main", position: 4, width: 10,
        kind: .penalties(PenaltyFormat(team: "home", lengths: [.seconds(120), .seconds(300)])),
        defaultValue: 0),
    ],
    displays: [DisplayLayout(name: "main", cellCount: 14)])

  static func seconds(_ value: Int64) -> Instant { .zero + .seconds(value) }

  @Test(
    arguments: [
      // Given at 0, 0 and 10 with two serving: the third starts when the first ends.
      ([0, 0, 10], [120, 120, 120], 2, [0, 0, 120], [120, 120, 240]),
      // One serving at a time: each waits for the one before.
      ([0, 5, 10], [120, 300, 120], 1, [0, 120, 420], [120, 420, 540]),
      // Given after a place came free: it starts when given.
      ([0, 200], [120, 120], 1, [0, 200], [120, 320]),
    ] as [([Int64], [Int64], Int, [Int64], [Int64])])
  func scheduleStacksPenalties(
    given: [Int64], lengths: [Int64], serving: Int, starts: [Int64], ends: [Int64]
  ) {
    let penalties = zip(given, lengths).enumerated().map { player, penalty in
      Penalty(player: player, length: .seconds(penalty.1), givenAt: .seconds(penalty.0))
    }
    let times = Penalty.schedule(penalties, serving: serving)
    #expect(times.map(\.start) == starts.map { .seconds($0) })
    #expect(times.map(\.end) == ends.map { .seconds($0) })
  }

  @Test func anEarlyEndFreesItsPlace() {
    let penalties = [
      Penalty(player: 1, length: .seconds(120), givenAt: .zero, endedAt: .seconds(30)),
      Penalty(player: 2, length: .seconds(120), givenAt: .seconds(10)),
    ]
    let times = Penalty.schedule(penalties, serving: 1)
    #expect(times[0].end == .seconds(30))
    #expect(times[1].start == .seconds(30))
  }

  @Test func aPenaltyIsGivenAtTheClocksShownSecond() throws {
    var board = Scoreboard(spec: Self.spec)
    _ = try board.perform(.start(clock: nil), at: Self.seconds(0))
    // At 10.4 s the clock shows 19:50 (19:49.6 rounded up): the penalty counts from it.
    _ = try board.perform(
      .penalty(.add(team: "home", player: 17, length: .seconds(120))),
      at: .zero + .milliseconds(10_400))
    #expect(board.penalties[1]?.first?.givenAt == .seconds(10))
    #expect(board.valueText(of: 1, at: Self.seconds(11)) == "17/1:59")
    // Its seconds change with the clock's.
    #expect(board.nextDeadline(after: Self.seconds(11)) == Self.seconds(12))
  }

  @Test func aRestartKeepsPenaltiesExactly() throws {
    var board = Scoreboard(spec: Self.spec)
    _ = try board.perform(.start(clock: nil), at: Self.seconds(0))
    _ = try board.perform(
      .penalty(.add(team: "home", player: 17, length: .seconds(120))), at: Self.seconds(10))
    _ = try board.perform(
      .penalty(.add(team: "home", player: 4, length: .seconds(300))), at: Self.seconds(20))
    _ = try board.perform(.penalty(.end(team: "home", player: 17)), at: Self.seconds(40))
    let text = SavedState(from: board, bootID: "boot").encoded()
    var restored = Scoreboard(spec: Self.spec)
    _ = try SavedState(parsing: text).apply(to: &restored, at: Self.seconds(50))
    #expect(restored.valueText(of: 1, at: Self.seconds(50)) == "4/4:30")
    #expect(restored.penalties == board.penalties)
    // Nothing is reported again after the restart.
    #expect(restored.advance(to: Self.seconds(51)) == [])
  }

  @Test func aPowerCutStopsPenaltiesWithTheClockAtItsLastStart() throws {
    var board = Scoreboard(spec: Self.spec)
    _ = try board.perform(.start(clock: nil), at: Self.seconds(0))
    _ = try board.perform(
      .penalty(.add(team: "home", player: 17, length: .seconds(120))), at: Self.seconds(10))
    _ = try board.perform(.stop(clock: nil), at: Self.seconds(30))
    _ = try board.perform(.start(clock: nil), at: Self.seconds(40))
    var saved = SavedState(from: board, bootID: "before")
    // Another boot: the running clock comes back stopped where it last started (19:30),
    // and the penalty with it (1:40 left, as at that start).
    saved.clocks["game"]?.startedAt = nil
    var restored = Scoreboard(spec: Self.spec)
    _ = saved.apply(to: &restored, at: Self.seconds(5))
    #expect(restored.valueText(of: 0, at: Self.seconds(5)) == "19:30.0")
    #expect(restored.valueText(of: 1, at: Self.seconds(5)) == "17/1:40")
  }

  /// Found by the fuzz targets: a field without penalties wrote no line, and read back
  /// as a different state.
  @Test func aBoardWithoutPenaltiesReadsBackTheSame() throws {
    var board = Scoreboard(spec: Self.spec)
    let state = SavedState(from: board)
    #expect(try SavedState(parsing: state.encoded()) == state)
    _ = try board.perform(
      .penalty(.add(team: "home", player: 17, length: .seconds(120))), at: .zero)
    let given = SavedState(from: board)
    #expect(try SavedState(parsing: given.encoded()) == given)
  }

  @Test func aVersionOneFileStillLoads() throws {
    let state = try SavedState(
      parsing: "version 1\nclock game 600000000000 stopped\n")
    var board = Scoreboard(spec: Self.spec)
    #expect(state.apply(to: &board) == [])
    #expect(board.valueText(of: 0, at: .zero) == "10:00.0")
    #expect(board.valueText(of: 1, at: .zero) == "-")
  }

  @Test func penaltyLinesReadBack() throws {
    let text = """
      version 2
      played game 30000000000
      penalty home-penalties 17 120000000000 10000000000
      penalty home-penalties 17 120000000000 10000000000 50000000000

      """
    let state = try SavedState(parsing: text)
    #expect(state.played == ["game": .seconds(30)])
    #expect(
      state.penalties["home-penalties"] == [
        Penalty(player: 17, length: .seconds(120), givenAt: .seconds(10)),
        Penalty(
          player: 17, length: .seconds(120), givenAt: .seconds(10), endedAt: .seconds(50)),
      ])
    #expect(state.encoded().hasSuffix(text.dropFirst("version 2\n".count)))
  }

  @Test(arguments: [
    "version 2\npenalty home-penalties 17\n",
    "version 2\npenalty home-penalties x 120 0\n",
    "version 2\npenalty home-penalties 17 0 0\n",
    "version 2\npenalty home-penalties -1 120 0\n",
    "version 2\nplayed game\n",
  ])
  func malformedPenaltyLinesAreRefusedWithTheLine(text: String) {
    let error = expectError(SavedStateError.self) { try SavedState(parsing: text) }
    #expect(error?.description.hasPrefix("line 2: expected ") == true)
  }

  @Test(arguments: [
    (
      PenaltyAction.add(team: "away", player: 1, length: .seconds(120)),
      "no field counts the penalties of 'away' (teams: home)"
    ),
    (
      .add(team: "home", player: 100, length: .seconds(120)),
      "not a penalty of home: player 100 is not a number of 0 to 99"
    ),
    (
      .add(team: "home", player: 1, length: .seconds(600)),
      "not a penalty of home: '10:00.0' is not a length of whole seconds from 0:01 to 9:59"
    ),
    (.end(team: "home", player: 5), "home's player 5 has no penalty open"),
    (.remove(team: "home", player: 5), "home's player 5 has no penalty open"),
  ])
  func badRequestsAreRefusedWithTheReason(action: PenaltyAction, message: String) {
    var board = Scoreboard(spec: Self.spec)
    let error = expectError(ScoreboardError.self) {
      try board.perform(.penalty(action), at: .zero)
    }
    #expect(error?.description == message)
    #expect(board.penalties[1] == [])
  }

  @Test func aFullListIsRefusedOnceNoPenaltyHasEnded() throws {
    var board = Scoreboard(spec: Self.spec)
    for player in 0..<PenaltyFormat.maximumCount {
      _ = try board.perform(
        .penalty(.add(team: "home", player: player, length: .seconds(120))), at: .zero)
    }
    let error = expectError(ScoreboardError.self) {
      try board.perform(.penalty(.add(team: "home", player: 99, length: .seconds(120))), at: .zero)
    }
    #expect(error == .tooManyPenalties(team: "home", most: PenaltyFormat.maximumCount))
    // Once the first have served, their places are taken by new ones.
    _ = try board.perform(.start(clock: nil), at: .zero)
    _ = try board.perform(
      .penalty(.add(team: "home", player: 99, length: .seconds(120))), at: Self.seconds(121))
    #expect(board.penalties[1]?.count == PenaltyFormat.maximumCount - 1)
  }
}
