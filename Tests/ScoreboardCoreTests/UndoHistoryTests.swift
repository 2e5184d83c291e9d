import ScoreboardCore
import Testing

/// The ring of undo entries against the plainest history: a list whose oldest entry goes
/// when it grows past the depth.
@Suite struct UndoHistoryTests {
  static func entry(_ value: Int) -> [Scoreboard.Change] {
    [.value(field: 0, from: value, to: value + 1)]
  }

  /// Appends `entry` to `history`, as the board does, and checks that the array comes
  /// back empty.
  static func append(_ entry: [Scoreboard.Change], to history: inout UndoHistory) {
    var changes = entry
    history.append(&changes)
    #expect(changes.isEmpty)
  }

  @Test(arguments: [0, 1, 2, 3, 7])
  func appendsAndPopsInAnyOrderMatchAPlainList(depth: Int) {
    var history = UndoHistory(depth: depth)
    var expected: [[Scoreboard.Change]] = []
    var generator = UndoDepthTests.SplitMix(seed: UInt64(depth) + 11)
    for step in 0..<3_000 {
      // As many pops as appends: the history empties, fills and wraps from every slot.
      if generator.next() % 2 == 0 {
        #expect(history.popLast() == expected.popLast(), "step \(step)")
      } else {
        Self.append(Self.entry(step), to: &history)
        expected.append(Self.entry(step))
        if expected.count > depth {
          expected.removeFirst()
        }
      }
      #expect(history.entries == expected, "step \(step)")
      #expect(history.count == expected.count)
      #expect(history.isEmpty == expected.isEmpty)
    }
  }

  @Test func aFullHistoryDropsItsOldestEntry() {
    var history = UndoHistory(depth: 3)
    for value in 1...5 {
      Self.append(Self.entry(value), to: &history)
    }
    #expect(history.entries == [3, 4, 5].map(Self.entry))
    #expect(history.popLast() == Self.entry(5))
    Self.append(Self.entry(6), to: &history)
    #expect(history.entries == [3, 4, 6].map(Self.entry))
  }

  /// Once full, the history hands each new entry's array back with the storage of the
  /// entry it dropped (the board fills its next entry there); before, without storage.
  /// A history of no depth leaves the storage with the caller.
  @Test(arguments: [0, 1, 2, 5])
  func aFullHistoryGivesBackTheStorageOfTheEntryItDrops(depth: Int) {
    var history = UndoHistory(depth: depth)
    let entries = (1...depth + 4).map { value -> [Scoreboard.Change] in
      [.value(field: 0, from: value - 1, to: value), .value(field: 1, from: 0, to: value)]
    }
    for (index, entry) in entries.enumerated() {
      var changes = entry
      history.append(&changes)
      #expect(changes.isEmpty, "entry \(index)")
      #expect((changes.capacity >= 2) == (index >= depth), "entry \(index)")
    }
    #expect(history.entries == Array(entries.suffix(depth)))
  }

  @Test func aHistoryOfNoDepthKeepsNothing() {
    var history = UndoHistory(depth: 0)
    Self.append(Self.entry(1), to: &history)
    #expect(history.isEmpty)
    #expect(history.popLast() == nil)
  }
}
