import ScoreboardCore

/// What a mirror board takes from a state document: the state, and the fields it could
/// not take.
public struct MirroredState: Hashable, Sendable {
  /// The values, clocks, brightness and blanking, as the state file has them.
  public var state: SavedState
  /// The document's fields the board has but could not take (another kind, a clock
  /// counting the other way, a value that does not fit), in the document's order.
  public var skipped: [String]

  public init(state: SavedState, skipped: [String]) {
    self.state = state
    self.skipped = skipped
  }
}
