@preconcurrency import Glibc
import LinuxIO
import Testing

// The signals are raised with raise(), which sends them to the calling thread: that is
// the thread whose mask the queue changed, and a signalfd reports signals pending for
// the thread that reads it.
@Suite struct SignalQueueTests {
  @Test func blockedSignalsArriveOnTheDescriptor() throws {
    let queue = try SignalQueue(signals: [.user1, .user2])
    defer { queue.close() }
    #expect(try queue.readSignals() == [])

    raise(SIGUSR1)
    #expect(try queue.readSignals() == [.user1])
    #expect(try queue.readSignals() == [])

    raise(SIGUSR2)
    raise(SIGUSR1)
    #expect(Set(try queue.readSignals()) == [.user1, .user2])
  }

  @Test func signalWakesThePollLoop() throws {
    let queue = try SignalQueue(signals: [.user2])
    defer { queue.close() }
    let loop = PollLoop()
    var received: [Signal] = []
    loop.watch(queue.fileDescriptor, for: .readable) { _ in
      received += (try? queue.readSignals()) ?? []
    }
    raise(SIGUSR2)
    #expect(try loop.runOnce(timeout: .seconds(5)) == 1)
    #expect(received == [.user2])
  }

  @Test func ignoredBrokenPipeBecomesAnError() throws {
    try Signal.brokenPipe.ignore()
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? writeEnd.close() }
    try readEnd.close()
    let error = #expect(throws: IOError.self) { try writeEnd.writeAll("12") }
    #expect(error?.errno == .brokenPipe)
  }

  @Test(arguments: [
    (Signal.interrupt, "SIGINT"), (.terminate, "SIGTERM"), (.hangUp, "SIGHUP"),
    (Signal(rawValue: SIGWINCH), "signal \(SIGWINCH)"),
  ])
  func description(signal: Signal, expected: String) {
    #expect(signal.description == expected)
  }
}
