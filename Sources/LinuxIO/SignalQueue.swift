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
    let result = SystemCall.blockSignals(&set)
    guard result == 0 else {
      throw IOError(operation: "pthread_sigmask", errno: Errno(rawValue: result))
    }
    let descriptor = try retryOnInterrupt("signalfd") { SystemCall.signalfd(&set) }
    fileDescriptor = FileDescriptor(rawValue: descriptor)
  }

  deinit {
    close()
  }

  /// A signal as it arrived: which, and who sent it.
  public struct Delivery: Hashable, Sendable {
    /// The signal.
    public var signal: Signal
    /// Whether the kernel sent it (`SI_KERNEL`), as a terminal's hang-up does, rather
    /// than a process with `kill` (`SI_USER`), as `systemctl reload` does.
    public var isFromKernel: Bool
    /// The process that sent it; 0 when the kernel did.
    public var sender: pid_t

    /// A delivery of `signal` from `sender`.
    public init(signal: Signal, isFromKernel: Bool, sender: pid_t) {
      self.signal = signal
      self.isFromKernel = isFromKernel
      self.sender = sender
    }
  }

  /// Reads every signal received since the last call, oldest first; empty when none is
  /// pending. A signal sent again before it is read is reported once.
  ///
  /// - Throws: `IOError` naming `read`.
  public func readSignals() throws -> [Delivery] {
    precondition(!isClosed, "readSignals() after close()")
    var deliveries: [Delivery] = []
    while true {
      var number: CInt = 0
      var code: CInt = 0
      var sender: pid_t = 0
      do {
        _ = try retryOnInterrupt("read") {
          SystemCall.readSignal(fileDescriptor.rawValue, &number, &code, &sender)
        }
      } catch let error as IOError where error.errno == .wouldBlock {
        return deliveries
      }
      deliveries.append(
        Delivery(signal: Signal(rawValue: number), isFromKernel: code == SI_KERNEL, sender: sender))
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
