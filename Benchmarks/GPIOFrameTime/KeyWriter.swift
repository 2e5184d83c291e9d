@preconcurrency import Glibc
import LinuxIO

/// Presses keys from a POSIX thread of its own, as a keypad would: a single byte written
/// into a pipe at each of the given instants, the time just before each write noted.
final class KeyWriter: @unchecked Sendable {
  // `writtenAt` is written by the thread and read after `pthread_join`, which orders them.
  private let descriptor: FileDescriptor
  private let instants: [Int64]
  private var writtenAt: [Int64] = []
  private var thread = pthread_t()

  /// A writer of a key into `descriptor` at each of `instants` (monotonic nanoseconds).
  init(writingTo descriptor: FileDescriptor, at instants: [Int64]) {
    self.descriptor = descriptor
    self.instants = instants
    writtenAt.reserveCapacity(instants.count)
  }

  /// Starts the thread.
  func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { context in
        let writer = Unmanaged<KeyWriter>.fromOpaque(context!).takeRetainedValue()
        writer.run()
        return nil
      }, context)
    precondition(created == 0, "pthread_create failed")
  }

  /// Waits for the last key and returns when each key was written.
  func join() -> [Int64] {
    pthread_join(thread, nil)
    return writtenAt
  }

  private func run() {
    for instant in instants {
      MonotonicClock.sleep(until: instant)
      writtenAt.append(MonotonicClock.now())
      do {
        try descriptor.writeAll([1])
      } catch {
        fatalError("a key could not be written: \(error)")
      }
    }
  }
}
