@preconcurrency import Glibc

/// Writes a small file durably (`TwoSlotFile.write`) on a thread of its own, so that the
/// thread that asks never waits for the disk: an SD card's `fsync` can take tens of
/// milliseconds, which a key or a clock frame must not wait behind.
///
/// One write at a time: `start` hands over the bytes, the thread writes them, and the
/// descriptor `completions` becomes readable; `takeResult()` then says how the write
/// went. A write started without waking its caller makes `completions` readable only
/// if it fails or if `takeResultIfEnded(orWake: true)` asked, so that a write nobody
/// waits for costs the caller no wake-up. The thread is made by the first `start` (so
/// it inherits the signal mask its caller has by then) and ends with `close()`.
public final class BackgroundFileWriter {
  /// How one write went.
  public struct Result: Sendable {
    /// The number the write was started with.
    public var ticket: UInt64
    /// Why the write failed (the call and its error, such as `fsync: EIO (...)`); nil
    /// when the file holds the bytes durably.
    public var failure: String?
  }

  /// How much nicer than its maker the writing thread runs: the loop that serves keys,
  /// displays and clocks comes first.
  static let niceness: CInt = 10
  /// The thread's name, as `top -H` shows it.
  public static let threadName = "sbd-state"

  /// Readable while a result waits to be taken.
  public var completions: FileDescriptor { shared.completions }
  /// A write was started and its result not yet taken.
  public private(set) var isBusy = false
  private let shared: Shared
  private var thread: pthread_t?

  /// A writer with no thread yet.
  ///
  /// - Throws: `IOError` naming `pipe`.
  public init() throws {
    shared = try Shared()
  }

  deinit {
    close()
  }

  /// Starts writing `bytes` to `file`, which the writer's thread uses until the result
  /// is taken; the result carries `ticket`. Only when the writer is not busy.
  ///
  /// - Parameter waking: `completions` becomes readable when the write ends; false: only
  ///   when it fails, or when asked later.
  /// - Throws: `IOError` naming `pthread_create` when the thread cannot be made.
  public func start(
    _ bytes: [UInt8], to file: TwoSlotFile, ticket: UInt64, waking: Bool = true
  ) throws {
    precondition(!isBusy, "one write at a time")
    if thread == nil {
      try makeThread()
    }
    shared.post(Job(file: file, bytes: bytes, ticket: ticket, waking: waking))
    isBusy = true
  }

  /// The result of the write started last, once it is done; nil while it runs. For the
  /// watcher of `completions`: it reads the wake-up.
  public func takeResult() -> Result? {
    guard let result = shared.takeResult(draining: true, waiting: false, orWake: false)
    else { return nil }
    isBusy = false
    return result
  }

  /// The result of the write started last if it has ended, without reading
  /// `completions`; nil while it runs, and then, with `orWake`, `completions` becomes
  /// readable when it ends.
  public func takeResultIfEnded(orWake: Bool) -> Result? {
    guard isBusy,
      let result = shared.takeResult(draining: false, waiting: false, orWake: orWake)
    else { return nil }
    isBusy = false
    return result
  }

  /// Waits until the write under way, if any, is done, and takes its result.
  public func waitForResult() -> Result? {
    guard isBusy else { return nil }
    isBusy = false
    return shared.takeResult(draining: true, waiting: true, orWake: false)
  }

  /// Lets the write under way finish, then ends the thread; calling it again does
  /// nothing.
  public func close() {
    guard let thread else { return }
    shared.stop()
    pthread_join(thread, nil)
    self.thread = nil
  }

  private func makeThread() throws {
    var made = pthread_t()
    let context = Unmanaged.passRetained(shared).toOpaque()
    let error = pthread_create(
      &made, nil,
      { context in
        Unmanaged<Shared>.fromOpaque(context!).takeRetainedValue().work()
        return nil
      }, context)
    guard error == 0 else {
      Unmanaged<Shared>.fromOpaque(context).release()
      throw IOError(operation: "pthread_create", errno: Errno(rawValue: error))
    }
    thread = made
  }

  private struct Job {
    var file: TwoSlotFile
    var bytes: [UInt8]
    var ticket: UInt64
    var waking: Bool
  }

  /// What the two threads share, behind one mutex; the thread keeps it alive.
  private final class Shared: @unchecked Sendable {
    let completions: FileDescriptor
    private let signal: FileDescriptor
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var job: Job?
    private var result: Result?
    /// The job under way wakes the caller when it ends.
    private var wakes = false
    private var isStopping = false

    init() throws {
      let ends = try FileDescriptor.pipe()
      completions = ends.readEnd
      signal = ends.writeEnd
      try completions.setNonBlocking()
      // The thread holds the mutex for moments, but runs nicer than the caller and may be
      // preempted holding it: as the unit runs the caller (the loop, SCHED_FIFO), the
      // thread then runs at the caller's priority until it lets go.
      var attributes = pthread_mutexattr_t()
      pthread_mutexattr_init(&attributes)
      pthread_mutexattr_setprotocol(&attributes, Int32(PTHREAD_PRIO_INHERIT))
      pthread_mutex_init(mutex, &attributes)
      pthread_mutexattr_destroy(&attributes)
      pthread_cond_init(condition, nil)
    }

    deinit {
      pthread_cond_destroy(condition)
      pthread_mutex_destroy(mutex)
      condition.deallocate()
      mutex.deallocate()
      try? completions.close()
      try? signal.close()
    }

    /// Hands `next` to the thread, which is woken with the mutex free: woken while the
    /// caller held it, the thread ran at once only to wait for it, and the caller's
    /// round was interrupted twice.
    func post(_ next: Job) {
      pthread_mutex_lock(mutex)
      job = next
      wakes = next.waking
      pthread_mutex_unlock(mutex)
      pthread_cond_broadcast(condition)
    }

    /// Takes the result, if there is one; without one, `orWake` makes the job wake the
    /// caller when it ends. With `draining`, the wake-up bytes are read first: the
    /// thread writes its byte after posting the result, so a byte read here is never
    /// one of a result still to come, and a byte that comes after the result was taken
    /// wakes the caller once, for nothing, rather than being left in the pipe.
    func takeResult(draining: Bool, waiting: Bool, orWake: Bool) -> Result? {
      if draining {
        var bytes: (UInt64, UInt64) = (0, 0)
        _ = SystemCall.read(completions.rawValue, &bytes, MemoryLayout.size(ofValue: bytes))
      }
      pthread_mutex_lock(mutex)
      while waiting, result == nil {
        pthread_cond_wait(condition, mutex)
      }
      let taken = result
      result = nil
      if taken == nil, orWake {
        wakes = true
      }
      pthread_mutex_unlock(mutex)
      return taken
    }

    func stop() {
      pthread_mutex_lock(mutex)
      isStopping = true
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
    }

    /// The thread: takes each job, writes it, posts the result and wakes the caller. It
    /// is named `threadName` and runs `niceness` steps nicer than the thread that made
    /// it, which comes first.
    func work() {
      _ = SystemCall.becomeBackgroundThread(
        named: BackgroundFileWriter.threadName, niceness: BackgroundFileWriter.niceness)
      pthread_mutex_lock(mutex)
      while true {
        while job == nil, !isStopping {
          pthread_cond_wait(condition, mutex)
        }
        guard let next = job else { break }
        job = nil
        pthread_mutex_unlock(mutex)
        var failure: String?
        do {
          try next.file.write(next.bytes)
        } catch let error as IOError {
          failure = "\(error.operation): \(error.errno)"
        } catch {
          failure = "\(error)"
        }
        pthread_mutex_lock(mutex)
        result = Result(ticket: next.ticket, failure: failure)
        pthread_cond_broadcast(condition)
        let waking = wakes || failure != nil
        wakes = false
        // The caller is woken with the mutex free, so that taking the result never
        // waits for this thread to let it go.
        pthread_mutex_unlock(mutex)
        if waking {
          var byte: UInt8 = 1
          _ = SystemCall.write(signal.rawValue, &byte, 1)
        }
        pthread_mutex_lock(mutex)
      }
      pthread_mutex_unlock(mutex)
    }
  }
}
