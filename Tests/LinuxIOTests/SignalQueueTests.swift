@preconcurrency import Glibc
import LinuxIO
import TestExpectations
import Testing

// The signals are raised with raise(), which sends them to the calling thread: that is
// the thread whose mask the queue changed, and a signalfd reports signals pending for
// the thread that reads it.
@Suite struct SignalQueueTests {
  @Test func blockedSignalsArriveOnTheDescriptor() throws {
    let queue = try SignalQueue(signals: [.user1, .user2])
    defer { queue.close() }
    let none = try queue.readSignals()
    #expect(none.isEmpty)

    raise(SIGUSR1)
    let first = try queue.readSignals()
    #expect(first.map(\.signal) == [.user1])
    let again = try queue.readSignals()
    #expect(again.isEmpty)

    raise(SIGUSR2)
    raise(SIGUSR1)
    let both = try queue.readSignals()
    #expect(Set(both.map(\.signal)) == [.user1, .user2])
  }

  @Test func deliveriesTellTheSender() throws {
    let queue = try SignalQueue(signals: [.user1])
    defer { queue.close() }
    // raise() sends with SI_TKILL and this process's ID, as `kill` (SI_USER) from
    // `systemctl reload` carries its sender's; only the kernel sends with SI_KERNEL.
    raise(SIGUSR1)
    let deliveries = try queue.readSignals()
    #expect(
      deliveries == [SignalQueue.Delivery(signal: .user1, isFromKernel: false, sender: getpid())])
  }

  @Test func signalWakesThePollLoop() throws {
    let queue = try SignalQueue(signals: [.user2])
    defer { queue.close() }
    let loop = PollLoop()
    var received: [Signal] = []
    loop.watch(queue.fileDescriptor, for: .readable) { _ in
      received += ((try? queue.readSignals()) ?? []).map(\.signal)
    }
    raise(SIGUSR2)
    let handled = try loop.runOnce(timeout: .seconds(5))
    #expect(handled == 1)
    #expect(received == [.user2])
  }

  @Test func ignoredBrokenPipeBecomesAnError() throws {
    try Signal.brokenPipe.ignore()
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? writeEnd.close() }
    try readEnd.close()
    let error = expectError(IOError.self) { try writeEnd.writeAll("12") }
    #expect(error?.errno == .brokenPipe)
  }

  // SIGWINCH is 28 on every Linux architecture. (Swift 6.0.3 crashes on a test argument
  // that interpolates a C macro.)
  @Test(arguments: [
    (Signal.interrupt, "SIGINT"), (.terminate, "SIGTERM"), (.hangUp, "SIGHUP"),
    (Signal(rawValue: SIGWINCH), "signal 28"),
  ])
  func description(signal: Signal, expected: String) {
    #expect(signal.description == expected)
  }
}
