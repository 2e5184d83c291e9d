@preconcurrency import Glibc
import LinuxIO
import Testing

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
      (nil, -1),
      (Duration.zero, 0),
      (.seconds(-1), 0),
      (.nanoseconds(1), 1),
      (.milliseconds(5), 5),
      (.microseconds(5_001), 6),
      (.seconds(2) + .nanoseconds(1), 2_001),
      (.seconds(100_000_000), CInt.max),
    ] as [(Duration?, CInt)])
  func timeoutIsRoundedUpToMilliseconds(timeout: Duration?, milliseconds: CInt) {
    #expect(PollLoop.pollTimeout(timeout) == milliseconds)
  }
}
