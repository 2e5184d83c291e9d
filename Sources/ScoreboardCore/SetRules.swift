/// Set scoring (volleyball, badminton, table tennis): each team's points and sets won,
/// a set won at `winsAt` points with a lead of `winBy`, a deciding set with its own
/// target, and the serve following the team that won the last point.
public struct SetRules: Hashable, Sendable {
  /// The fields of the two teams' points, the first team's first (`home away`).
  public var points: [String]
  /// The fields of the sets each team has won, in the same order.
  public var sets: [String]
  /// The points that win a set (volleyball 25, badminton 21, table tennis 11).
  public var winsAt: Int
  /// The lead a set is won by (2; 1: the first to `winsAt`).
  public var winBy: Int
  /// The set played to `decidingWinsAt` instead (volleyball: the 5th, to 15); nil: none.
  public var decidingSet: Int?
  public var decidingWinsAt: Int?
  /// A list field of two values whose value follows the team that won the last point,
  /// the first team's value first; nil: none.
  public var serve: String?

  public init(
    points: [String], sets: [String], winsAt: Int, winBy: Int = 2, decidingSet: Int? = nil,
    decidingWinsAt: Int? = nil, serve: String? = nil
  ) {
    self.points = points
    self.sets = sets
    self.winsAt = winsAt
    self.winBy = winBy
    self.decidingSet = decidingSet
    self.decidingWinsAt = decidingWinsAt
    self.serve = serve
  }

  /// The points that win set `number` (from 1).
  public func target(ofSet number: Int) -> Int {
    number == decidingSet ? decidingWinsAt ?? winsAt : winsAt
  }

  /// The team (0 or 1) that has won set `number` with `points`; nil while it goes on.
  public func winner(of number: Int, points: (Int, Int)) -> Int? {
    let target = target(ofSet: number)
    if points.0 >= target, points.0 - points.1 >= winBy { return 0 }
    if points.1 >= target, points.1 - points.0 >= winBy { return 1 }
    return nil
  }
}
