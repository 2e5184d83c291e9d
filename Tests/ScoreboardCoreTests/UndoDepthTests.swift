import ScoreboardCore
import Testing

/// `undo` reverts at most the board's undo depth of committed changes, the most recent
/// first, however the changes and undos interleave.
@Suite struct UndoDepthTests {
  static func board(depth: Int) -> Scoreboard {
    var spec = Fixtures.spec()
    spec.undoDepth = depth
    return Scoreboard(spec: spec)
  }

  @Test(arguments: [0, 1, 3, 32])
  func undoGoesBackAsFarAsTheDepth(depth: Int) throws {
    var board = Self.board(depth: depth)
    let changes = depth + 3
    for value in 1...changes {
      _ = try board.perform(.set(field: "home", value: String(value)), at: .zero)
    }
    #expect(board.undoHistory.count == depth)
    for undone in 1...(depth + 2) {
      _ = try board.perform(.undo, at: .zero)
      #expect(board.text(of: "home") == String(changes - min(undone, depth)), "undo \(undone)")
    }
    #expect(board.undoHistory.isEmpty)
  }

  /// Changes and undos in a long pseudo-random order, against the plainest history: a
  /// list whose oldest entry goes when it grows past the depth.
  @Test(arguments: [1, 2, 5])
  func changesAndUndosInAnyOrderMatchAPlainList(depth: Int) throws {
    var board = Self.board(depth: depth)
    var expected: [Int] = []
    var value = 0
    var generator = SplitMix(seed: UInt64(depth))
    for step in 0..<2_000 {
      if generator.next() % 3 == 0 {
        _ = try board.perform(.undo, at: .zero)
        if let previous = expected.popLast() {
          value = previous
        }
      } else {
        let next = (value + 1 + Int(generator.next() % 50)) % 100
        _ = try board.perform(.set(field: "home", value: String(next)), at: .zero)
        expected.append(value)
        if expected.count > depth {
          expected.removeFirst()
        }
        value = next
      }
      #expect(board.text(of: "home") == String(value), "step \(step)")
      #expect(board.undoHistory.count == expected.count, "step \(step)")
    }
  }

  /// A fixed sequence of pseudo-random numbers (SplitMix64), the same on every run.
  struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 31)
    }
  }
}
