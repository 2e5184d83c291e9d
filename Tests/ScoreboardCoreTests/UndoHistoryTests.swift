import ScoreboardCore
import Testing

/// The ring of undo entries against the plainest history: a list whose oldest entry goes
/// when it grows past the depth.
@Suite struct UndoHistoryTests {
  static func entry(_ value: Int) -> [Scoreboard.Change] {
    [.value(field: 0, from: value, to: value + 1)]
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
        history.append(Self.entry(step))
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
      history.append(Self.entry(value))
    }
    #expect(history.entries == [3, 4, 5].map(Self.entry))
    #expect(history.popLast() == Self.entry(5))
    history.append(Self.entry(6))
    #expect(history.entries == [3, 4, 6].map(Self.entry))
  }

  @Test func aHistoryOfNoDepthKeepsNothing() {
    var history = UndoHistory(depth: 0)
    history.append(Self.entry(1))
    #expect(history.isEmpty)
    #expect(history.popLast() == nil)
  }
}
