/// The committed changes `undo` can revert, most recent last: at most `depth` of them,
/// the oldest dropped when a new one comes to a full history.
///
/// The entries lie in a ring, so keeping one moves none of the others: a full history
/// takes a change at every key of a busy game.
public struct UndoHistory: Sendable {
  /// How many entries the history keeps.
  public let depth: Int
  /// The entries, once full in the order of the ring (`next` is the oldest's slot).
  private var slots: [[Scoreboard.Change]] = []
  /// The slot the next entry goes to.
  private var next = 0
  public private(set) var count = 0

  public init(depth: Int) {
    self.depth = max(depth, 0)
  }

  public var isEmpty: Bool { count == 0 }

  /// The entries, oldest first.
  public var entries: [[Scoreboard.Change]] {
    (0..<count).map { slots[(next - count + depth + $0) % depth] }
  }

  /// Keeps `changes` as the newest entry, dropping the oldest when the history is full.
  /// `changes` is left empty: with the dropped entry's storage, once the history is full,
  /// so that a caller that keeps it fills the next entry without allocating one.
  public mutating func append(_ changes: inout [Scoreboard.Change]) {
    guard depth > 0 else {
      changes.removeAll(keepingCapacity: true)
      return
    }
    if next == slots.count {
      slots.append(changes)
      changes = []
    } else {
      swap(&slots[next], &changes)
      changes.removeAll(keepingCapacity: true)
    }
    next = (next + 1) % depth
    count = min(count + 1, depth)
  }

  /// Takes the newest entry out; nil when there is none.
  public mutating func popLast() -> [Scoreboard.Change]? {
    guard count > 0 else { return nil }
    next = (next + depth - 1) % depth
    count -= 1
    let newest = slots[next]
    slots[next] = []
    return newest
  }
}
