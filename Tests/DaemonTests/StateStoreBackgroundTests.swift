@preconcurrency import Glibc
import ScoreboardCore
import TestSupport
import Testing

@testable import LinuxIO
@testable import ScoreboardDaemon

/// The state file written on the store's own thread, as the daemon writes it: what a
/// save says at once, which completions follow, and what is on disk.
@Suite struct StateStoreBackgroundTests {
  static let first = StateStoreTests.first
  static let second = StateStoreTests.second
  static let third = StateStoreTests.third

  /// Waits for the store's completion descriptor and takes what ended, until
  /// `ticket` has ended; nil after 10 s.
  static func completions(
    of store: StateStore, through ticket: UInt64, at now: Instant = .seconds(1)
  ) -> [StateStore.Completion]? {
    guard let descriptor = store.completions?.rawValue else { return nil }
    var taken: [StateStore.Completion] = []
    let deadline = MonotonicClock.now() + 10_000_000_000
    while !taken.contains(where: { $0.ticket >= ticket }) {
      guard MonotonicClock.now() < deadline else { return nil }
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&entry, 1, 100)
      taken += store.takeCompletions(at: now)
    }
    return taken
  }

  /// The board's state as a test changes it: how often the store took it
  /// (`currentState`), and how often it was given to `save` itself.
  final class CountedState {
    var current: SavedState
    var taken = 0
    var given = 0

    init(_ current: SavedState) {
      self.current = current
    }

    /// The state, handed to `save`, counted.
    func give() -> SavedState {
      given += 1
      return current
    }
  }

  /// A store writing on its thread whose `currentState` is `board`'s, counted, and its
  /// first write of `board`'s state, nobody waiting for it, begun at `start`.
  static func store(
    in folder: TemporaryFolder, log: LogCapture, taking board: CountedState, from start: Instant
  ) -> StateStore {
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger, inBackground: true)
    store.currentState = {
      board.taken += 1
      return board.current
    }
    #expect(store.save(board.current, at: start, answered: false) == .writing(ticket: 1))
    return store
  }

  @Test func saveIsReportedWhenDurableAndOnlyTheNewestWaitingStateIsWritten() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger, inBackground: true)
    #expect(store.save(Self.first, at: .zero) == .writing(ticket: 1))
    // The first write's result is not taken yet: these wait, and only the newest goes.
    #expect(store.save(Self.second, at: .zero) == .writing(ticket: 2))
    #expect(store.save(Self.third, at: .zero) == .writing(ticket: 3))
    #expect(store.save(Self.third, at: .zero) == .writing(ticket: 4), "waiting, not written")
    let completions = try #require(Self.completions(of: store, through: 4))
    #expect(
      completions == [
        .init(ticket: 1, unsavedReason: nil), .init(ticket: 4, unsavedReason: nil),
      ])
    #expect(try StateStoreTests.onDisk(folder) == Self.third)
    #expect(store.save(Self.third, at: .zero) == .done(unsavedReason: nil))
    #expect(folder.names() == ["state"])
  }

  /// Changes nobody waits for (keys) are written at most once in 50 ms: those of a
  /// burst wait for the interval, then go together; an answered change goes at once.
  @Test func unansweredChangesOfABurstAreWrittenTogetherAndAnAnsweredOneAtOnce() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger, inBackground: true)
    let start = Instant.seconds(1)
    #expect(store.save(Self.first, at: start, answered: false) == .writing(ticket: 1))
    #expect(try #require(Self.completions(of: store, through: 1, at: start)).count == 1)
    // 10 ms later: held until 50 ms after the first write began.
    let later = start + .milliseconds(10)
    #expect(store.save(Self.second, at: later, answered: false) == .writing(ticket: 2))
    #expect(store.deadline == start + .milliseconds(50))
    #expect(
      store.save(Self.third, at: later + .milliseconds(5), answered: false) == .writing(ticket: 3))
    store.writeHeldIfDue(at: start + .milliseconds(49))
    #expect(store.takeCompletions(at: later).isEmpty)
    #expect(try StateStoreTests.onDisk(folder) == Self.first, "nothing written before its time")
    store.writeHeldIfDue(at: start + .milliseconds(50))
    let held = try #require(Self.completions(of: store, through: 3, at: start + .milliseconds(50)))
    #expect(held == [.init(ticket: 3, unsavedReason: nil)])
    #expect(try StateStoreTests.onDisk(folder) == Self.third)
    #expect(store.deadline == nil)

    // A key's change held, then a request's: both go at once, with the request's.
    let next = start + .milliseconds(60)
    #expect(store.save(Self.first, at: next, answered: false) == .writing(ticket: 4))
    #expect(store.deadline == start + .milliseconds(100))
    #expect(store.save(Self.second, at: next, answered: true) == .writing(ticket: 5))
    let answered = try #require(Self.completions(of: store, through: 5, at: next))
    #expect(answered == [.init(ticket: 5, unsavedReason: nil)])
    #expect(try StateStoreTests.onDisk(folder) == Self.second)
    #expect(store.deadline == nil)
  }

  /// With `currentState`, the changes that join a held one are not put into a state
  /// each: the held write takes the state once, when it begins, and writes the newest.
  @Test func aHeldWriteTakesTheCurrentStateOnceWhenItBegins() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let board = CountedState(Self.first)
    let start = Instant.seconds(1)
    let store = Self.store(in: folder, log: log, taking: board, from: start)
    #expect(try #require(Self.completions(of: store, through: 1, at: start)).count == 1)

    board.current = Self.second
    #expect(
      store.save(board.give(), at: start + .milliseconds(10), answered: false)
        == .writing(ticket: 2))
    #expect(
      board.given == 0, "the first change of the burst is not taken either: the write is held")
    board.current = Self.third
    #expect(
      store.save(board.give(), at: start + .milliseconds(20), answered: false)
        == .writing(ticket: 3))
    #expect(
      store.save(board.give(), at: start + .milliseconds(30), answered: false)
        == .writing(ticket: 4))
    #expect(board.given == 0, "nor are the changes that join it")
    #expect(board.taken == 0)
    #expect(store.deadline == start + .milliseconds(50))

    store.writeHeldIfDue(at: start + .milliseconds(50))
    #expect(board.taken == 1)
    let held = try #require(Self.completions(of: store, through: 4, at: start + .milliseconds(50)))
    #expect(held == [.init(ticket: 4, unsavedReason: nil)])
    #expect(try StateStoreTests.onDisk(folder) == Self.third)
    #expect(board.taken == 1)

    // An answered change is taken as it is saved, and written at once.
    let next = start + .milliseconds(60)
    board.current = Self.first
    #expect(store.save(board.give(), at: next, answered: false) == .writing(ticket: 5))
    board.current = Self.second
    #expect(store.save(board.give(), at: next, answered: false) == .writing(ticket: 6))
    #expect(store.save(board.give(), at: next, answered: true) == .writing(ticket: 7))
    #expect(board.given == 1, "only the answered change is taken at once")
    #expect(board.taken == 1)
    let answered = try #require(Self.completions(of: store, through: 7, at: next))
    #expect(answered == [.init(ticket: 7, unsavedReason: nil)])
    #expect(try StateStoreTests.onDisk(folder) == Self.second)
  }

  /// A change nobody waits for, saved while a write is under way with nothing else
  /// waiting, is not taken either: the next write takes the newest state as it begins.
  @Test func aChangeDuringAWriteIsTakenWhenTheNextWriteBegins() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let board = CountedState(Self.first)
    let start = Instant.seconds(1)
    let store = Self.store(in: folder, log: log, taking: board, from: start)
    board.current = Self.second
    // The first write's result is not taken yet: the writer is busy.
    #expect(
      store.save(board.give(), at: start + .milliseconds(1), answered: false) == .writing(ticket: 2)
    )
    #expect(board.given == 0)
    board.current = Self.third
    let first = try #require(
      Self.completions(of: store, through: 1, at: start + .milliseconds(2)))
    #expect(first == [.init(ticket: 1, unsavedReason: nil)])
    #expect(store.deadline == start + .milliseconds(50), "held after the write that began")
    #expect(board.taken == 0)

    store.writeHeldIfDue(at: start + .milliseconds(50))
    #expect(board.taken == 1)
    let second = try #require(
      Self.completions(of: store, through: 2, at: start + .milliseconds(50)))
    #expect(second == [.init(ticket: 2, unsavedReason: nil)])
    #expect(try StateStoreTests.onDisk(folder) == Self.third)
  }

  /// Whether the store's completion descriptor is readable now.
  static func isReadable(_ store: StateStore) -> Bool {
    guard let descriptor = store.completions?.rawValue else { return false }
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) == 1
  }

  /// A write nobody waits for does not wake the loop when it ends: the next save takes
  /// its end, and the loop hears of it from `takeFinished`.
  @Test func aWriteNobodyWaitsForEndsWithoutWakingTheLoop() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger, inBackground: true)
    let start = Instant.seconds(1)
    #expect(store.save(Self.first, at: start, answered: false) == .writing(ticket: 1))
    let later = start + .milliseconds(60)
    let deadline = MonotonicClock.now() + 10_000_000_000
    // The same state again: `.writing` while the write runs, `.done` once its end is
    // taken.
    var entry = pollfd(
      fd: try #require(store.completions).rawValue, events: Int16(POLLIN), revents: 0)
    while store.save(Self.first, at: later, answered: false) != .done(unsavedReason: nil) {
      #expect(poll(&entry, 1, 1) == 0, "no wake-up for a write nobody waits for")
      guard MonotonicClock.now() < deadline else {
        Issue.record("the write did not end in 10 s")
        return
      }
    }
    #expect(!Self.isReadable(store))
    #expect(store.takeFinished() == [.init(ticket: 1, unsavedReason: nil)])
    #expect(store.takeFinished().isEmpty)
    #expect(store.deadline == nil)
    #expect(try StateStoreTests.onDisk(folder) == Self.first)
  }

  /// A write nobody waited for wakes the loop once something waits for it: an answer,
  /// or a change whose hold has ended.
  @Test(arguments: [true, false])
  func aWriteUnderWayWakesTheLoopOnceSomethingWaitsForIt(answered: Bool) throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger, inBackground: true)
    let start = Instant.seconds(1)
    #expect(store.save(Self.first, at: start, answered: false) == .writing(ticket: 1))
    if answered {
      #expect(store.save(Self.second, at: start, answered: true) == .writing(ticket: 2))
    } else {
      let held = start + .milliseconds(10)
      #expect(store.save(Self.second, at: held, answered: false) == .writing(ticket: 2))
      #expect(store.deadline == start + .milliseconds(50))
      store.writeHeldIfDue(at: start + .milliseconds(50))
    }
    // Either the first write is still under way and wakes the loop when it ends, or
    // its end was taken and the second began: nothing is left for a deadline.
    #expect(store.deadline == nil)
    var ended = store.takeFinished()
    let deadline = MonotonicClock.now() + 10_000_000_000
    while !ended.contains(where: { $0.ticket == 2 }) {
      if !answered, ended.contains(where: { $0.ticket == 1 }) {
        // The held change nobody waits for is written without waking the loop.
        break
      }
      var entry = pollfd(
        fd: try #require(store.completions).rawValue, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, 10_000) == 1, MonotonicClock.now() < deadline else {
        Issue.record("no wake-up in 10 s; ended \(ended)")
        return
      }
      ended += store.takeCompletions(at: start + .milliseconds(50))
    }
    #expect(ended.map(\.ticket).contains(answered ? 2 : 1), "\(ended)")
    #expect(store.finish(at: start + .seconds(1)).allSatisfy { $0.unsavedReason == nil })
    #expect(try StateStoreTests.onDisk(folder) == Self.second)
  }

  /// A failed write wakes the loop even when nobody waits for it: the failure is told
  /// at once.
  @Test func aFailedWriteNobodyWaitsForWakesTheLoop() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(
      path: folder.path(of: "missing/state"), logger: log.logger, inBackground: true)
    #expect(store.save(Self.first, at: .zero, answered: false) == .writing(ticket: 1))
    var entry = pollfd(
      fd: try #require(store.completions).rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 10_000) == 1)
    let failed = store.takeCompletions(at: .zero)
    #expect(failed.first?.unsavedReason?.contains("ENOENT") == true, "\(failed)")
    #expect(log.lines.contains { $0.hasPrefix("<3>cannot save the scores") })
  }

  @Test func aFailedWriteIsReportedAndTheRetryMakesItDurable() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(
      path: folder.path(of: "missing/state"), logger: log.logger, inBackground: true)
    #expect(store.save(Self.first, at: .zero) == .writing(ticket: 1))
    let failed = try #require(Self.completions(of: store, through: 1))
    #expect(failed.count == 1)
    #expect(failed.first?.unsavedReason?.contains("ENOENT") == true, "\(failed)")
    guard case .failing = store.health else {
      Issue.record("health \(store.health)")
      return
    }
    let retryAt = try #require(store.retryAt)
    #expect(log.lines.contains { $0.hasPrefix("<3>cannot save the scores") })

    _ = try folder.makeFolder("missing")
    store.retryIfDue(at: retryAt)
    let retried = try #require(Self.completions(of: store, through: 1))
    #expect(retried == [.init(ticket: 1, unsavedReason: nil)])
    #expect(store.health == .saved)
    #expect(store.retryAt == nil)
    #expect(folder.readNewest("missing/state").map { try? SavedState(parsing: $0) } == Self.first)
  }

  @Test func finishingWritesWhatWaitsAndLaterSavesAreMadeAtOnce() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger, inBackground: true)
    #expect(store.save(Self.first, at: .zero) == .writing(ticket: 1))
    #expect(store.save(Self.second, at: .zero) == .writing(ticket: 2))
    let completions = store.finish(at: .zero)
    #expect(completions.map(\.ticket) == [1, 2])
    #expect(completions.allSatisfy { $0.unsavedReason == nil })
    #expect(try StateStoreTests.onDisk(folder) == Self.second)
    #expect(store.completions == nil)
    #expect(store.save(Self.third, at: .zero) == .done(unsavedReason: nil))
    #expect(try StateStoreTests.onDisk(folder) == Self.third)
  }
}
