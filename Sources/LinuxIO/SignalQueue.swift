import CScoreboardLinux
@preconcurrency import Glibc

/// Turns signals into readable events: the signals are blocked, so they no longer
/// interrupt or stop the program, and queue up on a signalfd to watch in a `PollLoop`.
///
/// Create it before starting any thread: the block applies to the calling thread, and
/// threads started later inherit it. The signals stay blocked after `close()`.
public final class SignalQueue {
  /// The signalfd (non-blocking, close-on-exec), owned by the queue and closed by
  /// `close()` or when the queue is released.
  public let fileDescriptor: FileDescriptor
  private var isClosed = false

  /// Blocks `signals` in the calling thread and opens a signalfd receiving them.
  ///
  /// - Throws: `IOError` naming `pthread_sigmask` or `signalfd`.
  public init(signals: [Signal]) throws {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals {
      sigaddset(&set, signal.rawValue)
    }
    let result = pthread_sigmask(SIG_BLOCK, &set, nil)
    guard result == 0 else {
      throw IOError(operation: "pthread_sigmask", errno: Errno(rawValue: result))
    }
    let descriptor = try retryOnInterrupt("signalfd") { sbl_signalfd(&set) }
    fileDescriptor = FileDescriptor(rawValue: descriptor)
  }

  deinit {
    close()
  }

  /// Reads every signal received since the last call, oldest first; empty when none is
  /// pending. A signal sent again before it is read is reported once.
  ///
  /// - Throws: `IOError` naming `read`.
  public func readSignals() throws -> [Signal] {
    precondition(!isClosed, "readSignals() after close()")
    var signals: [Signal] = []
    while true {
      var number: CInt = 0
      do {
        _ = try retryOnInterrupt("read") { sbl_signalfd_read(fileDescriptor.rawValue, &number) }
      } catch let error as IOError where error.errno == .wouldBlock {
        return signals
      }
      signals.append(Signal(rawValue: number))
    }
  }

  /// Closes the signalfd; calling it again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    // Closing a signalfd cannot fail in a way that matters to the caller.
    try? fileDescriptor.close()
  }
}
