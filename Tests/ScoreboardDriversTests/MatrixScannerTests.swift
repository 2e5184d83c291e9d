import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct MatrixScannerTests {
  typealias Change = MatrixScanner.Change

  /// A 2x2 matrix, debounced over 20 ms, scanned every 10 ms.
  func scanner() -> MatrixScanner {
    MatrixScanner(rows: 2, columns: 2, debounce: .milliseconds(20))
  }

  /// The reading of a 2x2 matrix with `keys` closed.
  func reading(_ keys: Int...) -> [Bool] {
    (0..<4).map { keys.contains($0) }
  }

  func change(_ key: Int, down: Bool, at ms: Int64) -> Change {
    Change(key: key, isDown: down, time: .milliseconds(ms))
  }

  @Test func pressCountsWhenSeenInScansOverTheDebouncePeriod() {
    var scanner = scanner()
    #expect(scanner.isIdle)
    #expect(scanner.scanned(closed: reading(2), at: .milliseconds(100)) == [])
    #expect(scanner.nextDeadline == .milliseconds(110))
    #expect(scanner.scanned(closed: reading(2), at: .milliseconds(110)) == [])
    #expect(
      scanner.scanned(closed: reading(2), at: .milliseconds(120)) == [
        change(2, down: true, at: 100)
      ])
    #expect(scanner.isDown == [false, false, true, false])
    #expect(scanner.nextDeadline == .milliseconds(130))
  }

  @Test func bounceStartsTheRunOver() {
    var scanner = scanner()
    let scans = [reading(1), reading(), reading(1), reading(1)]
    for (index, closed) in scans.enumerated() {
      #expect(scanner.scanned(closed: closed, at: .milliseconds(Int64(index) * 10)) == [])
    }
    #expect(
      scanner.scanned(closed: reading(1), at: .milliseconds(40)) == [change(1, down: true, at: 20)])
  }

  @Test func glitchIsDroppedAndTheScannerIdles() {
    var scanner = scanner()
    #expect(scanner.scanned(closed: reading(3), at: .milliseconds(0)) == [])
    #expect(scanner.scanned(closed: reading(), at: .milliseconds(10)) == [])
    #expect(scanner.isIdle)
    #expect(scanner.nextDeadline == nil)
  }

  @Test func releaseIsDebouncedThenTheScannerIdles() {
    var scanner = scanner()
    for ms in [0, 10, 20] as [Int64] {
      _ = scanner.scanned(closed: reading(0), at: .milliseconds(ms))
    }
    #expect(scanner.isDown[0])
    #expect(scanner.scanned(closed: reading(), at: .milliseconds(30)) == [])
    #expect(scanner.scanned(closed: reading(0), at: .milliseconds(40)) == [])
    #expect(scanner.scanned(closed: reading(), at: .milliseconds(50)) == [])
    #expect(scanner.scanned(closed: reading(), at: .milliseconds(60)) == [])
    #expect(!scanner.isIdle)
    #expect(
      scanner.scanned(closed: reading(), at: .milliseconds(70)) == [change(0, down: false, at: 50)])
    #expect(scanner.isIdle)
  }

  @Test func twoKeysHeldAtOnceAreBothReported() {
    var scanner = scanner()
    var changes: [Change] = []
    for ms in [0, 10, 20] as [Int64] {
      changes += scanner.scanned(closed: reading(0, 3), at: .milliseconds(ms))
    }
    #expect(changes == [change(0, down: true, at: 0), change(3, down: true, at: 0)])
  }

  @Test func rectangleKeepsItsKeysUntilItOpens() {
    var scanner = scanner()
    for ms in [0, 10, 20] as [Int64] {
      _ = scanner.scanned(closed: reading(0, 1), at: .milliseconds(ms))
    }
    #expect(scanner.isDown == [true, true, false, false])
    // Key 2 closes too: key 3 reads closed as well (a ghost). Which one is real cannot
    // be told, so nothing changes while the rectangle lasts.
    for ms in [30, 40, 50, 60] as [Int64] {
      #expect(scanner.scanned(closed: reading(0, 1, 2, 3), at: .milliseconds(ms)) == [])
    }
    #expect(scanner.isDown == [true, true, false, false])
    // Key 0 opens: the rectangle is gone, key 2 shows as pressed and key 0 as released.
    var changes: [Change] = []
    for ms in [70, 80, 90] as [Int64] {
      changes += scanner.scanned(closed: reading(1, 2), at: .milliseconds(ms))
    }
    #expect(changes == [change(0, down: false, at: 70), change(2, down: true, at: 70)])
  }

  @Test func keysClosedAtStartAreDownWithoutAPress() {
    var scanner = scanner()
    scanner.start(closed: reading(1))
    #expect(scanner.isDown == [false, true, false, false])
    #expect(scanner.nextDeadline == .zero)
    var changes: [Change] = []
    for ms in [0, 10, 20, 30] as [Int64] {
      changes += scanner.scanned(closed: reading(), at: .milliseconds(ms))
    }
    #expect(changes == [change(1, down: false, at: 0)])
    #expect(scanner.isIdle)

    scanner.start(closed: reading())
    #expect(scanner.isIdle)
  }
}
