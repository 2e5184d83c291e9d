import ScoreboardCore
import Testing

/// When a team-fouls field is in its bonus, and which period changes set it back.
@Suite struct TeamFoulRulesTests {
  static let nfhs = TeamFoulRules(bonus: [7, 10], period: "quarter", resetsAt: [2])
  static let everyPeriod = TeamFoulRules(bonus: [5], period: "quarter")

  @Test(arguments: [(0, 0), (6, 0), (7, 1), (9, 1), (10, 2), (99, 2)])
  func theBonusLevelOfACount(count: Int, level: Int) {
    #expect(Self.nfhs.bonusLevel(of: count) == level)
  }

  /// NFHS's quarters as list indices 0...4 (1 2 3 4 OT): the half starts at index 2.
  @Test(arguments: [
    (0, 1, false), (1, 2, true), (0, 3, true), (2, 3, false), (3, 4, false), (2, 1, false),
    (3, 0, false), (1, 1, false),
  ])
  func halvesSetTheFoulsBack(from: Int, to: Int, resets: Bool) {
    #expect(Self.nfhs.resets(periodFrom: from, to: to) == resets)
  }

  @Test func withoutResetsAtEveryLaterPeriodSetsThemBack() {
    #expect(Self.everyPeriod.resets(periodFrom: 3, to: 4))
    #expect(!Self.everyPeriod.resets(periodFrom: 4, to: 3))
  }

  /// FIBA timeouts of `1 2 3 4 OT`: 2 at first, 3 from the 3rd quarter, 1 in overtime;
  /// nil: the count is not set (a period that gives none).
  @Test(
    arguments: [(0, 1, nil), (1, 2, 3), (2, 3, nil), (3, 4, 1), (1, 4, 1), (0, 2, 3)]
      as [(Int, Int, Int?)])
  func timeoutsAreGivenAgainByPeriod(from: Int, to: Int, count: Int?) {
    let rules = TeamFoulRules(period: "quarter", resetsAt: [2, 4], resetsTo: [3, 1])
    let value =
      rules.resets(periodFrom: from, to: to)
      ? rules.resetValue(periodFrom: from, to: to, defaultValue: 2) : nil
    #expect(value == count)
  }
}
