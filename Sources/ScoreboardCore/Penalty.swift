/// One penalty of a team: the player, its length, and when it was given and ended, as
/// game time played (the running time of the clock it counts), so that correcting the
/// game clock corrects the penalty with it.
public struct Penalty: Hashable, Sendable {
  /// Where a penalty stands at a moment.
  public enum Phase: String, Hashable, Sendable {
    /// Given, and waiting for a serving place (stacked penalties).
    case waiting
    /// Counting down.
    case serving
    /// Served, or ended early.
    case ended
  }

  /// The player's number.
  public var player: Int
  public var length: Duration
  /// The game time played when it was given.
  public var givenAt: Duration
  /// The game time played when it was ended early (a power-play goal, or by hand); nil
  /// while it serves its length.
  public var endedAt: Duration?
  /// The phase last reported in an event; nil before the `added` event.
  public internal(set) var reportedPhase: Phase?

  public init(player: Int, length: Duration, givenAt: Duration, endedAt: Duration? = nil) {
    self.player = player
    self.length = length
    self.givenAt = givenAt
    self.endedAt = endedAt
  }

  /// When a penalty of a list starts and ends, as game time played.
  public struct Times: Hashable, Sendable {
    public var start: Duration
    public var end: Duration

    /// The phase at game time played `played`.
    public func phase(at played: Duration) -> Phase {
      played < start ? .waiting : played < end ? .serving : .ended
    }

    /// The time left at game time played `played` (all of it while waiting).
    public func remaining(at played: Duration) -> Duration {
      max(end - max(played, start), .zero)
    }
  }

  /// When each penalty of `penalties` (in the order they were given) starts and ends,
  /// with at most `serving` counting down at once: each starts when it was given or,
  /// when every place is taken, when the first of them comes free.
  public static func schedule(_ penalties: [Penalty], serving: Int) -> [Times] {
    var free = Array(repeating: Duration.zero, count: max(serving, 1))
    var times: [Times] = []
    times.reserveCapacity(penalties.count)
    for penalty in penalties {
      let place = free.indices.min { free[$0] < free[$1] }!
      let start = max(penalty.givenAt, free[place])
      let served = start + penalty.length
      let end = penalty.endedAt.map { max(start, min($0, served)) } ?? served
      free[place] = end
      times.append(Times(start: start, end: end))
    }
    return times
  }
}
