/// A period that `next-period` ended: its value in the period field and the totals of the
/// score fields at its end (the field's `periodScores`, in their order).
public struct FinishedPeriod: Hashable, Sendable {
  /// The period field's value (a number, or a list index).
  public var period: Int
  /// Each score field's total when the period ended.
  public var totals: [Int]

  public init(period: Int, totals: [Int]) {
    self.period = period
    self.totals = totals
  }
}
