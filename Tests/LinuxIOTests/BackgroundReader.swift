@preconcurrency import Glibc
import LinuxIO

/// Reads a descriptor to its end on a POSIX thread of its own, as a second process
/// would: blocking reads must not tie up the Swift concurrency pool that runs the tests.
final class BackgroundReader: @unchecked Sendable {
  // `bytes` is written by the thread and read after `pthread_join`, which orders them.
  private let descriptor: FileDescriptor
  private var bytes: [UInt8] = []
  private var thread = pthread_t()

  /// A reader of `descriptor`, which it closes at the end.
  init(_ descriptor: FileDescriptor) {
    self.descriptor = descriptor
  }

  /// Starts the thread.
  func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { context in
        let reader = Unmanaged<BackgroundReader>.fromOpaque(context!).takeRetainedValue()
        reader.bytes = (try? reader.descriptor.readToEnd()) ?? []
        try? reader.descriptor.close()
        return nil
      }, context)
    precondition(created == 0, "pthread_create failed")
  }

  /// Waits for the end of the input and returns everything read.
  func join() -> [UInt8] {
    pthread_join(thread, nil)
    return bytes
  }
}
