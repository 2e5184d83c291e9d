import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct ButtonDebouncerTests {
  typealias Change = ButtonDebouncer.Change

  /// Feeds `edges` (line, level, milliseconds) one by one, then advances to `end`
  /// milliseconds, and returns every change.
  func debounce(
    _ edges: [(line: Int, value: Bool, ms: Int64)], lines: Int = 1, until end: Int64
  ) -> [Change] {
    var debouncer = ButtonDebouncer(
      period: .milliseconds(20), levels: Array(repeating: false, count: lines))
    var changes: [Change] = []
    for edge in edges {
      changes += debouncer.edge(line: edge.line, value: edge.value, at: .milliseconds(edge.ms))
    }
    return changes + debouncer.advance(to: .milliseconds(end))
  }

  func change(_ line: Int, _ value: Bool, at ms: Int64) -> Change {
    Change(line: line, value: value, time: .milliseconds(ms))
  }

  @Test func cleanPressAndReleaseCountAfterThePeriod() {
    var debouncer = ButtonDebouncer(period: .milliseconds(20), levels: [false])
    #expect(debouncer.nextDeadline == nil)
    #expect(debouncer.edge(line: 0, value: true, at: .milliseconds(100)) == [])
    #expect(debouncer.nextDeadline == .milliseconds(120))
    #expect(debouncer.advance(to: .milliseconds(119)) == [])
    #expect(debouncer.advance(to: .milliseconds(120)) == [change(0, true, at: 100)])
    #expect(debouncer.levels == [true])
    #expect(debouncer.nextDeadline == nil)

    #expect(debouncer.edge(line: 0, value: false, at: .milliseconds(400)) == [])
    #expect(debouncer.advance(to: .milliseconds(425)) == [change(0, false, at: 400)])
    #expect(debouncer.levels == [false])
  }

  @Test func bounceTrainsOnPressAndReleaseCountOnce() {
    var debouncer = ButtonDebouncer(period: .milliseconds(20), levels: [false])
    for (ms, value) in [(100, true), (101, false), (103, true), (104, false), (106, true)] {
      #expect(debouncer.edge(line: 0, value: value, at: .milliseconds(Int64(ms))) == [])
    }
    // Each edge restarts the period: it ends 20 ms after the last one.
    #expect(debouncer.nextDeadline == .milliseconds(126))
    #expect(debouncer.advance(to: .milliseconds(125)) == [])
    #expect(debouncer.advance(to: .milliseconds(126)) == [change(0, true, at: 106)])

    #expect(
      debounce(
        [
          (0, true, 100), (0, false, 300), (0, true, 302), (0, false, 303), (0, true, 305),
          (0, false, 309),
        ], until: 1_000)
        == [change(0, true, at: 100), change(0, false, at: 309)])
  }

  @Test func glitchShorterThanThePeriodIsDropped() {
    #expect(debounce([(0, true, 100), (0, false, 119)], until: 1_000) == [])
    #expect(
      debounce([(0, true, 100), (0, false, 105), (0, true, 107), (0, false, 110)], until: 1_000)
        == [])
  }

  @Test func pulseAsLongAsThePeriodCounts() {
    #expect(
      debounce([(0, true, 100), (0, false, 120)], until: 1_000)
        == [change(0, true, at: 100), change(0, false, at: 120)])
  }

  @Test func edgesReadLateInOneBatchGiveTheSameChanges() {
    // A press and its release read together long after: the press's period ended before
    // the release came, so it still counts.
    var debouncer = ButtonDebouncer(period: .milliseconds(20), levels: [false])
    #expect(debouncer.edge(line: 0, value: true, at: .milliseconds(0)) == [])
    #expect(
      debouncer.edge(line: 0, value: false, at: .milliseconds(50)) == [change(0, true, at: 0)])
    #expect(debouncer.advance(to: .milliseconds(500)) == [change(0, false, at: 50)])
  }

  @Test func twoButtonsInterleavedAreDebouncedApart() {
    let edges: [(line: Int, value: Bool, ms: Int64)] = [
      (0, true, 100), (1, true, 105), (0, false, 108), (0, true, 110), (1, false, 112),
      (1, true, 113), (0, false, 200), (1, false, 201), (0, true, 202), (0, false, 204),
    ]
    #expect(
      debounce(edges, lines: 2, until: 1_000) == [
        change(0, true, at: 110), change(1, true, at: 113), change(1, false, at: 201),
        change(0, false, at: 204),
      ])
  }

  @Test func levelsStartAsRead() {
    // A button held when the lines were requested: its release is the first change.
    var debouncer = ButtonDebouncer(period: .milliseconds(20), levels: [true, false])
    #expect(debouncer.edge(line: 0, value: false, at: .milliseconds(10)) == [])
    #expect(debouncer.advance(to: .milliseconds(30)) == [change(0, false, at: 10)])
  }

  @Test func zeroPeriodPassesEachEdgeOn() {
    var debouncer = ButtonDebouncer(period: .zero, levels: [false])
    #expect(debouncer.edge(line: 0, value: true, at: .milliseconds(10)) == [])
    #expect(
      debouncer.edge(line: 0, value: false, at: .milliseconds(11)) == [change(0, true, at: 10)])
    #expect(debouncer.advance(to: .milliseconds(11)) == [change(0, false, at: 11)])
    #expect(debouncer.nextDeadline == nil)
  }
}
