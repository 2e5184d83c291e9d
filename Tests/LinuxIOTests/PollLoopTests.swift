@preconcurrency import Glibc
import TestExpectations
import Testing

@testable import LinuxIO

@Suite struct PollLoopTests {
  /// Records the events each handler received, in order.
  final class Recorder {
    var calls: [(name: String, events: PollLoop.Events)] = []

    func handler(_ name: String) -> PollLoop.Handler {
      { [unowned self] events in calls.append((name, events)) }
    }

    var names: [String] {
      calls.map(\.name)
    }
  }

  @Test func timeoutReturnsWithoutEvents() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(readEnd, for: .readable, handler: recorder.handler("read end"))
    #expect(try loop.runOnce(timeout: .milliseconds(20)) == 0)
    #expect(try loop.runOnce(timeout: .zero) == 0)
    #expect(recorder.calls.isEmpty)
  }

  @Test func dispatchesReadyDescriptorsInWatchOrder() throws {
    let first = try FileDescriptor.pipe()
    let second = try FileDescriptor.pipe()
    defer {
      for descriptor in [first.readEnd, first.writeEnd, second.readEnd, second.writeEnd] {
        try? descriptor.close()
      }
    }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(second.readEnd, for: .readable, handler: recorder.handler("second"))
    loop.watch(first.readEnd, for: .readable, handler: recorder.handler("first"))
    loop.watch(first.writeEnd, for: .writable, handler: recorder.handler("writer"))
    try second.writeEnd.writeAll("x")
    try first.writeEnd.writeAll("y")

    #expect(try loop.runOnce(timeout: nil) == 3)
    #expect(recorder.names == ["second", "first", "writer"])
    #expect(recorder.calls[0].events == .readable)
    #expect(recorder.calls[2].events == .writable)
  }

  /// Runs `body` with `count` pipes, closed once it returns.
  func withPipes(
    _ count: Int, _ body: ([(readEnd: FileDescriptor, writeEnd: FileDescriptor)]) throws -> Void
  ) throws {
    let pipes = try (0..<count).map { _ in try FileDescriptor.pipe() }
    defer {
      for pipe in pipes {
        try? pipe.readEnd.close()
        try? pipe.writeEnd.close()
      }
    }
    try body(pipes)
  }

  /// `firstIsReady()` polls the descriptors of the `.first` watches, and only those.
  @Test func firstIsReadyLooksAtTheFirstWatchesAloneAndCallsNoHandler() throws {
    try withPipes(2) { pipes in
      let loop = PollLoop()
      #expect(!loop.firstIsReady(), "no watch")
      var calls = 0
      loop.watch(pipes[0].readEnd, for: .readable, priority: .first) { _ in calls += 1 }
      loop.watch(pipes[1].readEnd, for: .readable) { _ in calls += 1 }
      #expect(!loop.firstIsReady())
      try pipes[1].writeEnd.writeAll([1])
      #expect(!loop.firstIsReady(), "a normal watch's descriptor is not asked")
      try pipes[0].writeEnd.writeAll([1])
      #expect(loop.firstIsReady())
      #expect(calls == 0)
      #expect(try loop.runOnce(timeout: .zero) == 2)
    }
  }

  /// A keypad's watch (`.first`) is served before the network's that were added before
  /// it; each group keeps the order it was added in.
  @Test func watchesFirstAreDispatchedBeforeTheOthers() throws {
    try withPipes(4) { pipes in
      let loop = PollLoop()
      let recorder = Recorder()
      loop.watch(pipes[0].readEnd, for: .readable, handler: recorder.handler("network"))
      loop.watch(
        pipes[1].readEnd, for: .readable, priority: .first, handler: recorder.handler("keypad"))
      loop.watch(pipes[2].readEnd, for: .readable, handler: recorder.handler("control"))
      loop.watch(
        pipes[3].readEnd, for: .readable, priority: .first, handler: recorder.handler("buttons"))
      for pipe in pipes {
        try pipe.writeEnd.writeAll("x")
      }

      #expect(try loop.runOnce(timeout: nil) == 4)
      #expect(recorder.names == ["keypad", "buttons", "network", "control"])
    }
  }

  /// Watching a descriptor again with another priority moves its handler to that group.
  @Test func watchingAgainWithAnotherPriorityMovesTheWatch() throws {
    try withPipes(2) { pipes in
      let loop = PollLoop()
      let recorder = Recorder()
      loop.watch(pipes[0].readEnd, for: .readable, handler: recorder.handler("first, normal"))
      loop.watch(pipes[1].readEnd, for: .readable, handler: recorder.handler("second"))
      loop.watch(
        pipes[0].readEnd, for: .readable, priority: .first,
        handler: recorder.handler("first, moved"))
      try pipes[0].writeEnd.writeAll("x")
      try pipes[1].writeEnd.writeAll("y")
      #expect(try loop.runOnce(timeout: .zero) == 2)
      loop.watch(
        pipes[1].readEnd, for: .readable, priority: .first, handler: recorder.handler("last"))
      #expect(try loop.runOnce(timeout: .zero) == 2)

      #expect(recorder.names == ["first, moved", "second", "first, moved", "last"])
    }
  }

  /// A descriptor `epoll` cannot watch (a regular file, `/dev/null`) is ready at every
  /// round for what it was asked, as `poll` says; the wait only checks.
  @Test(arguments: ["/dev/null", "/proc/self/stat"])
  func aDescriptorEpollCannotWatchIsReadyAtEveryRound(path: String) throws {
    let file = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
    defer { try? file.close() }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(file, for: [.readable, .writable], handler: recorder.handler("file"))
    #expect(try loop.runOnce(timeout: nil) == 1)
    #expect(try loop.runOnce(timeout: .seconds(60)) == 1)
    #expect(recorder.calls.map(\.events) == [[.readable, .writable], [.readable, .writable]])
    loop.removeWatch(file)
    #expect(try loop.runOnce(timeout: .zero) == 0)
  }

  /// A descriptor that is not open when it is watched is reported invalid at every
  /// round, as `poll` reports it.
  @Test func aDescriptorNotOpenIsReportedInvalid() throws {
    // Above any number the process may open (tests running beside this one open and
    // close descriptors all the time).
    let notOpen = FileDescriptor(rawValue: CInt.max)
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(notOpen, for: .readable, handler: recorder.handler("not open"))
    #expect(try loop.runOnce(timeout: nil) == 1)
    #expect(recorder.calls.map(\.events) == [.invalid])
  }

  /// A descriptor closed before its watch was removed, whose file lives on in another
  /// descriptor, leaves an entry the loop cannot take out of the kernel's list: ready,
  /// it would end every wait at once. The loop makes its list again.
  @Test func anEntryLeftByAClosedDescriptorDoesNotEndEveryWait() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    let copy = FileDescriptor(rawValue: dup(readEnd.rawValue))
    defer {
      try? copy.close()
      try? writeEnd.close()
    }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(readEnd, for: .readable, handler: recorder.handler("closed early"))
    try readEnd.close()
    loop.removeWatch(readEnd)
    try writeEnd.writeAll("x")
    for _ in 0..<2 {
      let start = MonotonicClock.now()
      #expect(try loop.runOnce(timeout: .milliseconds(20)) == 0)
      #expect(MonotonicClock.now() - start >= 20_000_000, "the wait is not ended early")
    }
    #expect(recorder.calls.isEmpty)
  }

  @Test func reportsHangUpWithoutBeingAsked() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(readEnd, for: .readable, handler: recorder.handler("read end"))
    try writeEnd.close()

    #expect(try loop.runOnce(timeout: .seconds(5)) == 1)
    #expect(recorder.calls.first?.events.contains(.hangUp) == true)
  }

  @Test func handlersMayRemoveAndAddWatchesWhileDispatching() throws {
    let first = try FileDescriptor.pipe()
    let second = try FileDescriptor.pipe()
    let third = try FileDescriptor.pipe()
    defer {
      for pipe in [first, second, third] {
        try? pipe.readEnd.close()
        try? pipe.writeEnd.close()
      }
    }
    for pipe in [first, second, third] {
      try pipe.writeEnd.writeAll("ready")
    }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(first.readEnd, for: .readable) { events in
      recorder.calls.append(("first", events))
      loop.removeWatch(first.readEnd)
      loop.removeWatch(second.readEnd)
      loop.watch(third.readEnd, for: .readable, handler: recorder.handler("third"))
    }
    loop.watch(second.readEnd, for: .readable, handler: recorder.handler("second"))

    #expect(try loop.runOnce(timeout: .zero) == 1)
    #expect(recorder.names == ["first"])
    #expect(try loop.runOnce(timeout: .zero) == 1)
    #expect(recorder.names == ["first", "third"])
  }

  @Test func watchingAgainReplacesTheHandler() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    try writeEnd.writeAll("x")
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(readEnd, for: .readable, handler: recorder.handler("old"))
    loop.watch(readEnd, for: .readable, handler: recorder.handler("new"))
    #expect(try loop.runOnce(timeout: .zero) == 1)
    #expect(recorder.names == ["new"])
  }

  @Test(
    arguments: [
      (nil, nil),
      (Duration.zero, [0, 0]),
      (.seconds(-1), [0, 0]),
      (.nanoseconds(1), [0, 1]),
      (.microseconds(100), [0, 100_000]),
      (.milliseconds(5), [0, 5_000_000]),
      (.seconds(2) + .nanoseconds(1), [2, 1]),
      (.milliseconds(1_500), [1, 500_000_000]),
      (.seconds(100_000_000), [100_000_000, 0]),
    ] as [(Duration?, [Int64]?)])
  func timeoutIsKeptToTheNanosecond(timeout: Duration?, seconds: [Int64]?) {
    let limit = PollLoop.pollTimeout(timeout)
    #expect(limit.map { [Int64($0.tv_sec), Int64($0.tv_nsec)] } == seconds)
  }

  @Test func aFractionOfANanosecondRoundsUp() {
    let quarter = Duration(secondsComponent: 0, attosecondsComponent: 250_000_000)
    let limit = PollLoop.pollTimeout(.microseconds(100) + quarter)
    #expect(limit.map { [Int64($0.tv_sec), Int64($0.tv_nsec)] } == [0, 100_001])
    let second = PollLoop.pollTimeout(.seconds(1) - quarter)
    #expect(second.map { [Int64($0.tv_sec), Int64($0.tv_nsec)] } == [1, 0])
  }

  @Test func theLongestTimeoutSaturatesAndIsAccepted() throws {
    let limit = PollLoop.pollTimeout(.seconds(Int64.max))
    #expect(limit.map { Int64($0.tv_sec) } == Int64(time_t.max))
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    try writeEnd.writeAll("x")
    let loop = PollLoop()
    loop.watch(readEnd, for: .readable) { _ in }
    #expect(try loop.runOnce(timeout: .seconds(Int64.max)) == 1, "not EINVAL")
  }

  /// A timeout well under a millisecond is waited for as it is, not a whole millisecond:
  /// the steps of a bit-banged display are 100 µs apart.
  @Test func aShortTimeoutIsNotRoundedToAMillisecond() throws {
    let loop = PollLoop()
    var shortest = Int64.max
    for _ in 0..<20 {
      let start = MonotonicClock.now()
      #expect(try loop.runOnce(timeout: .microseconds(100)) == 0)
      let elapsed = MonotonicClock.now() - start
      #expect(elapsed >= 100_000, "never early")
      shortest = min(shortest, elapsed)
    }
    #expect(shortest < 1_000_000, "at least one of 20 waits shorter than a millisecond")
  }

  @Test func anInterruptedWaitIsMadeAgain() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    try writeEnd.writeAll("x")
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(readEnd, for: .readable, handler: recorder.handler("read end"))
    let interruptOnce: (SystemCallTrace) -> Void = { $0.fail("epoll_pwait2", with: .interrupted) }
    let (called, trace) = try SystemCallTrace.record(failing: interruptOnce) {
      try loop.runOnce(timeout: .milliseconds(100))
    }
    #expect(called == 1)
    #expect(trace.names == ["epoll_pwait2", "epoll_pwait2"])
    #expect(recorder.names == ["read end"])
  }

  @Test func aFailedWaitThrowsNamingTheCall() {
    let loop = PollLoop()
    let invalid: (SystemCallTrace) -> Void = { $0.fail("epoll_pwait2", with: .invalidArgument) }
    let error = expectError(IOError.self) {
      try SystemCallTrace.record(failing: invalid) {
        try loop.runOnce(timeout: nil)
      }
    }
    #expect(error?.operation == "epoll_pwait2")
    #expect(error?.errno == .invalidArgument)
  }

  /// A deadline is waited for on a kernel timer armed for that instant: never early, and
  /// the timer is made once and armed again only when the deadline changes.
  @Test func aDeadlineIsWaitedForOnATimerNeverEarly() throws {
    let loop = PollLoop()
    for _ in 0..<10 {
      let deadline = MonotonicClock.now() + 2_000_000
      let (called, trace) = try SystemCallTrace.record {
        try loop.runOnce(until: deadline)
      }
      #expect(called == 0)
      #expect(MonotonicClock.now() >= deadline, "never early")
      #expect(trace.names.suffix(2) == ["timerfd_settime", "epoll_pwait2"])
    }
  }

  @Test func aReadyDescriptorEndsTheWaitAndTheSameDeadlineIsNotArmedAgain() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(readEnd, for: .readable, handler: recorder.handler("read end"))
    try writeEnd.writeAll("x")
    let deadline = MonotonicClock.now() + 60_000_000_000
    let (first, firstTrace) = try SystemCallTrace.record { try loop.runOnce(until: deadline) }
    #expect(first == 1)
    #expect(firstTrace.names == ["timerfd_settime", "epoll_pwait2"])
    let (second, secondTrace) = try SystemCallTrace.record { try loop.runOnce(until: deadline) }
    #expect(second == 1)
    #expect(secondTrace.names == ["epoll_pwait2"])
    #expect(recorder.names == ["read end", "read end"])
  }

  /// A timer that fired stays readable until it is armed again: the next, later
  /// deadline must not end the wait at once.
  @Test func aTimerThatFiredDoesNotEndTheNextWaitEarly() throws {
    let loop = PollLoop()
    let first = MonotonicClock.now() + 1_000_000
    #expect(try loop.runOnce(until: first) == 0)
    let second = MonotonicClock.now() + 20_000_000
    #expect(try loop.runOnce(until: second) == 0)
    #expect(MonotonicClock.now() >= second, "never early")
  }

  @Test func aPassedDeadlineOnlyChecksAndNoDeadlineDisarmsTheTimer() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(readEnd, for: .readable, handler: recorder.handler("read end"))
    let (passed, passedTrace) = try SystemCallTrace.record {
      try loop.runOnce(until: MonotonicClock.now() - 1)
    }
    #expect(passed == 0)
    #expect(passedTrace.names == ["epoll_pwait2"])
    try writeEnd.writeAll("x")
    #expect(try loop.runOnce(until: MonotonicClock.now() + 60_000_000_000) == 1)
    let (called, trace) = try SystemCallTrace.record { try loop.runOnce(until: nil) }
    #expect(called == 1)
    #expect(trace.names == ["timerfd_settime", "epoll_pwait2"])
    #expect(recorder.names == ["read end", "read end"])
  }

  /// A wait on the instant wakes early and waits out the rest awake: it still never ends
  /// before its deadline.
  @Test func aWaitOnTheInstantNeverEndsEarly() throws {
    let loop = PollLoop()
    for _ in 0..<20 {
      let deadline = MonotonicClock.now() + 2_000_000
      #expect(try loop.runOnce(until: deadline, onTheInstant: true) == 0)
      #expect(MonotonicClock.now() >= deadline, "never early")
    }
  }

  @Test func aDescriptorReadyEndsAWaitOnTheInstant() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    let loop = PollLoop()
    let recorder = Recorder()
    loop.watch(readEnd, for: .readable, handler: recorder.handler("read end"))
    try writeEnd.writeAll("x")
    // Within the awake stretch already, and well before it.
    #expect(try loop.runOnce(until: MonotonicClock.now() + 10_000, onTheInstant: true) == 1)
    #expect(try loop.runOnce(until: MonotonicClock.now() + 60_000_000_000, onTheInstant: true) == 1)
    #expect(recorder.names == ["read end", "read end"])
  }
}
