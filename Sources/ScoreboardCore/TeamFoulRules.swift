/// The rules of a team-fouls field: the counts from which the bonus lights, and the
/// period field whose advance sets the count back to its default. A field of timeouts
/// left takes the period rules too (FIBA: 2 in the first half, 3 in the second, 1 in
/// each overtime), with the counts it is set back to (`resetsTo`).
public struct TeamFoulRules: Hashable, Sendable {
  /// The counts from which each bonus level is lit, increasing: FIBA `5` (free throws
  /// from the 5th team foul of a period), NFHS `7 10` (one-and-one, then double bonus).
  public var bonus: [Int]
  /// The field that counts the periods (`quarter`); nil when the count is set back by
  /// hand alone.
  public var period: String?
  /// The period field's values (numbers, or a list's indices) at whose start the count
  /// goes back to its default: FIBA `2 3 4` of `1 2 3 4 OT` (overtime counts with the
  /// 4th quarter), NFHS `3` (halves); nil: at the start of every period.
  public var resetsAt: [Int]?
  /// The count each of `resetsAt` sets the field to, in the same order; nil: its default.
  public var resetsTo: [Int]?

  public init(
    bonus: [Int] = [], period: String? = nil, resetsAt: [Int]? = nil, resetsTo: [Int]? = nil
  ) {
    self.bonus = bonus
    self.period = period
    self.resetsAt = resetsAt
    self.resetsTo = resetsTo
  }

  /// The count the period moving from `from` to `to` sets the field to: the one of the
  /// last period it reached that sets it back, else `defaultValue`.
  public func resetValue(periodFrom from: Int, to: Int, defaultValue: Int) -> Int {
    guard let resetsAt, let resetsTo,
      let reached = resetsAt.indices.last(where: { from < resetsAt[$0] && resetsAt[$0] <= to }),
      resetsTo.indices.contains(reached)
    else { return defaultValue }
    return resetsTo[reached]
  }

  /// How many bonus levels `count` fouls light (0: none).
  public func bonusLevel(of count: Int) -> Int {
    bonus.filter { count >= $0 }.count
  }

  /// Whether the period moving from `from` to `to` starts a period that sets the count
  /// back: only forward, and also when periods are skipped past one.
  public func resets(periodFrom from: Int, to: Int) -> Bool {
    guard from < to else { return false }
    guard let resetsAt else { return true }
    return resetsAt.contains { from < $0 && $0 <= to }
  }
}
