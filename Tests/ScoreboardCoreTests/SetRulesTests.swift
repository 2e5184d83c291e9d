import ScoreboardCore
import Testing

/// Who has won a set, and to what a set is played.
@Suite struct SetRulesTests {
  static let volleyball = SetRules(
    points: ["home", "away"], sets: ["home-sets", "away-sets"], winsAt: 25, winBy: 2,
    decidingSet: 5, decidingWinsAt: 15)

  @Test(
    arguments: [
      (1, 25, 23, 0), (1, 25, 24, nil), (1, 26, 24, 0), (1, 30, 32, 1), (1, 24, 22, nil),
      (5, 15, 13, 0), (5, 15, 14, nil), (5, 14, 16, 1), (4, 15, 13, nil),
    ] as [(Int, Int, Int, Int?)])
  func theWinnerOfASet(set: Int, home: Int, away: Int, winner: Int?) {
    #expect(Self.volleyball.winner(of: set, points: (home, away)) == winner)
  }

  @Test func withoutALeadTheFirstToTheTargetWins() {
    let rules = SetRules(points: ["a", "b"], sets: ["c", "d"], winsAt: 11, winBy: 1)
    #expect(rules.winner(of: 1, points: (11, 10)) == 0)
    #expect(rules.target(ofSet: 5) == 11)
  }
}
