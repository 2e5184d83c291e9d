/// The rules of a field that counts a team's timeouts left: the team `timeout TEAM`
/// names, and the clock a timeout starts.
public struct TimeoutRules: Hashable, Sendable {
  /// The team's name in `timeout TEAM` (`home`).
  public var team: String
  /// The clock a timeout loads with its start time and starts (a 60 s timeout clock);
  /// nil: none.
  public var clock: String?

  public init(team: String, clock: String? = nil) {
    self.team = team
    self.clock = clock
  }
}
