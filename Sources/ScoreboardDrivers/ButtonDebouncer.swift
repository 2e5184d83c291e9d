import ScoreboardCore

/// Debounces button lines in user space the way the kernel's GPIO debouncer does
/// (libgpiod v2), for libgpiod v1, whose kernel interface cannot debounce.
///
/// The rule is trailing: a line's new level counts once no edge came for `period` after
/// its last edge. Every edge restarts the period, so a bounce train counts once; a
/// pulse shorter than the period ends at the level it started from and is dropped.
///
/// A change is stamped with the kernel's time of the last edge, the moment the level
/// became stable; the kernel's own debouncer stamps its events when its timer fires,
/// one period later. No clock is read: edges carry their times and the caller says
/// when it is, so scenarios are exact.
public struct ButtonDebouncer: Sendable {
  /// A line whose debounced level changed.
  public struct Change: Hashable, Sendable {
    /// The index of the line.
    public var line: Int
    /// The line's logical level from now on (`true`: pressed).
    public var value: Bool
    /// When the level became stable: the time of its last edge.
    public var time: Instant

    /// A change of `line` to `value`, stable since `time`.
    public init(line: Int, value: Bool, time: Instant) {
      self.line = line
      self.value = value
      self.time = time
    }
  }

  /// How long a line must keep its level before the level counts.
  public let period: Duration
  /// The debounced level of each line.
  public private(set) var levels: [Bool]
  /// The level and time of each line's last edge while its period runs.
  private var pending: [(value: Bool, time: Instant)?]

  /// A debouncer for lines whose levels are `levels` now (read when the lines were
  /// requested).
  public init(period: Duration, levels: [Bool]) {
    self.period = period
    self.levels = levels
    pending = Array(repeating: nil, count: levels.count)
  }

  /// When a period ends; nil when no line is bouncing.
  public var nextDeadline: Instant? {
    pending.compactMap { $0.map { $0.time + period } }.min()
  }

  /// Takes an edge of `line` to `value` at `time`. Periods that ended before `time` are
  /// settled first, so edges read late in one batch give the same changes as edges
  /// read one at a time; edges must come in time order.
  ///
  /// - Returns: The changes of lines whose period ended by `time`, in time order.
  public mutating func edge(line: Int, value: Bool, at time: Instant) -> [Change] {
    let changes = advance(to: time)
    pending[line] = (value, time)
    return changes
  }

  /// Settles the lines whose period ended by `now`.
  ///
  /// - Returns: The lines whose level changed, in time order (then line order).
  public mutating func advance(to now: Instant) -> [Change] {
    var changes: [Change] = []
    for line in pending.indices {
      guard let edge = pending[line], edge.time + period <= now else { continue }
      pending[line] = nil
      if edge.value != levels[line] {
        levels[line] = edge.value
        changes.append(Change(line: line, value: edge.value, time: edge.time))
      }
    }
    return changes.sorted { ($0.time, $0.line) < ($1.time, $1.line) }
  }
}
