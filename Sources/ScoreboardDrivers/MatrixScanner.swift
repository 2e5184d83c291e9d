import ScoreboardCore

/// Debounces the scans of a key matrix without diodes and says when to scan next: the
/// logic of `GPIOMatrixKeypad`, fed with what each scan read and when.
///
/// Keys are numbered row-major (`row * columns + column`). A key's new state counts
/// when consecutive scans spanning at least `debounce` all saw it, from the first scan
/// that saw it to one `debounce` or more later; a scan that sees the old state in
/// between starts over. A change is stamped with the time of the first of those scans,
/// when the state became stable.
///
/// Scanning goes on every `scanInterval` while a key is down or on its way; when
/// everything is up, `nextDeadline` is nil and the keypad waits for an edge.
///
/// Ghosting: in a matrix without diodes, three keys closed on three corners of a
/// rectangle (two rows, two columns) connect the fourth corner too, which then reads
/// closed although it is up. A scan cannot tell which corner is the ghost, so while a
/// rectangle of four keys reads closed, its keys keep the state they had: keys already
/// down stay down, and no new press among them is reported until the rectangle opens.
/// Longer chains of keys are covered too: whatever they connect reads as a block of
/// rows and columns all closed, which is made of rectangles. Two keys held at once
/// never form a rectangle and are both reported.
public struct MatrixScanner: Sendable {
  /// A key whose debounced state changed.
  public struct Change: Hashable, Sendable {
    /// The key's row-major index.
    public var key: Int
    /// Whether the key is down from now on.
    public var isDown: Bool
    /// When the state became stable: the first scan that saw it.
    public var time: Instant

    /// A change of `key` to `isDown`, stable since `time`.
    public init(key: Int, isDown: Bool, time: Instant) {
      self.key = key
      self.isDown = isDown
      self.time = time
    }
  }

  /// The number of rows.
  public let rows: Int
  /// The number of columns.
  public let columns: Int
  /// How long a key's new state must be seen before it counts.
  public let debounce: Duration
  /// How often the matrix is scanned while a key is down.
  public let scanInterval: Duration
  /// The debounced state of each key, row-major.
  public private(set) var isDown: [Bool]
  /// The first scan of the current run that saw a key in the state it is not in yet.
  private var changingSince: [Instant?]
  /// When the next scan is due; nil when the matrix is idle.
  public private(set) var nextDeadline: Instant?

  /// A scanner for a matrix of `rows` by `columns` keys, all up.
  public init(
    rows: Int, columns: Int, debounce: Duration, scanInterval: Duration = .milliseconds(10)
  ) {
    self.rows = rows
    self.columns = columns
    self.debounce = debounce
    self.scanInterval = scanInterval
    isDown = Array(repeating: false, count: rows * columns)
    changingSince = Array(repeating: nil, count: rows * columns)
  }

  /// Whether nothing is down or changing: no scan is due until an edge comes.
  public var isIdle: Bool { nextDeadline == nil }

  /// Takes a first scan as the state: keys closed at start count as down without being
  /// reported as pressed (a rectangle's keys are all taken as down). When one is down,
  /// the next scan is due at once (`nextDeadline` is the clock's origin, long past).
  public mutating func start(closed: [Bool]) {
    precondition(closed.count == isDown.count)
    isDown = closed
    changingSince = Array(repeating: nil, count: closed.count)
    nextDeadline = closed.contains(true) ? .zero : nil
  }

  /// Takes a scan made at `time`: `closed[key]` is whether the key's column read active
  /// while its row was driven.
  ///
  /// - Returns: The keys whose debounced state changed, in time order.
  public mutating func scanned(closed: [Bool], at time: Instant) -> [Change] {
    precondition(closed.count == isDown.count)
    let ambiguous = rectangleKeys(closed)
    var changes: [Change] = []
    for key in isDown.indices {
      let seen = ambiguous.contains(key) ? isDown[key] : closed[key]
      guard seen != isDown[key] else {
        changingSince[key] = nil
        continue
      }
      let since = changingSince[key] ?? time
      if time - since >= debounce {
        isDown[key] = seen
        changingSince[key] = nil
        changes.append(Change(key: key, isDown: seen, time: since))
      } else {
        changingSince[key] = since
      }
    }
    let busy =
      closed.contains(true) || isDown.contains(true) || changingSince.contains { $0 != nil }
    nextDeadline = busy ? time + scanInterval : nil
    return changes.sorted { ($0.time, $0.key) < ($1.time, $1.key) }
  }

  /// The keys on the corners of rectangles whose four corners read closed.
  private func rectangleKeys(_ closed: [Bool]) -> Set<Int> {
    var keys: Set<Int> = []
    for top in 0..<rows {
      for bottom in (top + 1)..<rows {
        let shared = (0..<columns).filter {
          closed[top * columns + $0] && closed[bottom * columns + $0]
        }
        guard shared.count >= 2 else { continue }
        for column in shared {
          keys.insert(top * columns + column)
          keys.insert(bottom * columns + column)
        }
      }
    }
    return keys
  }
}
