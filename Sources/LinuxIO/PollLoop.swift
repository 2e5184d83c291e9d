@preconcurrency import Glibc

/// One thread's event loop: waits with `ppoll()` until a watched descriptor is ready or a
/// timeout (to the nanosecond) passes, then calls the handlers of the ready descriptors.
///
/// Each descriptor has at most one watch. The loop does not own the descriptors: remove
/// a watch before closing its descriptor, or the next poll reports `.invalid` for it.
public final class PollLoop {
  /// Conditions of a descriptor, as `poll()` reports them.
  public struct Events: OptionSet, Hashable, Sendable {
    /// The `poll()` event bits.
    public let rawValue: Int16

    /// Wraps `poll()` event bits.
    public init(rawValue: Int16) {
      self.rawValue = rawValue
    }

    /// Data can be read without blocking. The corresponding C constant is `POLLIN`.
    public static let readable = Events(rawValue: Int16(POLLIN))
    /// Data can be written without blocking. The corresponding C constant is `POLLOUT`.
    public static let writable = Events(rawValue: Int16(POLLOUT))
    /// The other end hung up (always reported). The corresponding C constant is `POLLHUP`.
    public static let hangUp = Events(rawValue: Int16(POLLHUP))
    /// An error is pending (always reported). The corresponding C constant is `POLLERR`.
    public static let error = Events(rawValue: Int16(POLLERR))
    /// The descriptor is not open: a watch outlived its descriptor (always reported).
    /// The corresponding C constant is `POLLNVAL`.
    public static let invalid = Events(rawValue: Int16(POLLNVAL))
  }

  /// Called with the events that occurred on a watched descriptor.
  public typealias Handler = (Events) -> Void

  private struct Watch {
    var descriptor: FileDescriptor
    var events: Events
    var handler: Handler
    /// Tells this watch apart from a later one on a reused descriptor number.
    var serial: UInt64
  }

  private var watches: [Watch] = [] {
    didSet { entriesMatchWatches = false }
  }
  private var nextSerial: UInt64 = 0
  /// What `ppoll()` is given: one entry per watch, in order, kept from round to round.
  private var entries: [pollfd] = []
  private var entriesMatchWatches = false
  /// The kernel timer that `runOnce(until:)` waits on; nil when the kernel would not
  /// make one.
  private let timer: FileDescriptor?
  /// The instant the timer is armed for (nanoseconds on `CLOCK_MONOTONIC`); nil while
  /// it is disarmed.
  private var armedDeadline: Int64?
  /// How late the timer's wakeups have been: how early a wait on the instant wakes.
  private var wakeLatency = WakeLatency()

  /// An empty loop, with its timer (a timerfd, held from the start so that the loop's
  /// descriptors do not change with its first deadline).
  public init() {
    let descriptor = SystemCall.timerCreate()
    timer = descriptor >= 0 ? FileDescriptor(rawValue: descriptor) : nil
  }

  deinit {
    if let timer {
      _ = SystemCall.close(timer.rawValue)
    }
  }

  /// Names one watch, so that its owner removes that watch and not a later one on a
  /// reused descriptor number.
  public struct Token: Hashable, Sendable {
    let serial: UInt64
  }

  /// Watches `descriptor` for `events`, replacing any watch it had. Hang-up, error and
  /// invalid events are reported whether asked for or not.
  ///
  /// A handler may add and remove watches, including its own.
  @discardableResult
  public func watch(
    _ descriptor: FileDescriptor, for events: Events, handler: @escaping Handler
  ) -> Token {
    nextSerial += 1
    let watch = Watch(descriptor: descriptor, events: events, handler: handler, serial: nextSerial)
    if let index = watches.firstIndex(where: { $0.descriptor == descriptor }) {
      watches[index] = watch
    } else {
      watches.append(watch)
    }
    return Token(serial: nextSerial)
  }

  /// Removes the watch `token` names, if it is still in place.
  public func removeWatch(_ token: Token) {
    watches.removeAll { $0.serial == token.serial }
  }

  /// Stops watching `descriptor`; nothing happens when it is not watched.
  public func removeWatch(_ descriptor: FileDescriptor) {
    watches.removeAll { $0.descriptor == descriptor }
  }

  /// Waits once, then calls the handler of each ready descriptor in the order the
  /// watches were added.
  ///
  /// A watch removed or replaced by an earlier handler of the same round is not called.
  ///
  /// - Parameter timeout: The longest wait, to the nanosecond (`ppoll()`: the next step
  ///   of a bit-banged display may be 100 µs away), never reported early; nil waits until
  ///   a descriptor is ready. A zero or negative timeout only checks.
  /// - Returns: The number of handlers called; 0 when the timeout passed.
  /// - Throws: `IOError` naming `ppoll`.
  @discardableResult
  public func runOnce(timeout: Duration?) throws -> Int {
    let polled = watches
    prepareEntries(polled)
    let count = polled.count
    #if STAGE_TIMES
      StageTimes.mark(.asleep)
    #endif
    if var limit = Self.pollTimeout(timeout) {
      _ = try retryOnInterrupt("ppoll") { SystemCall.ppoll(&entries, count, &limit) }
    } else {
      _ = try retryOnInterrupt("ppoll") { SystemCall.ppoll(&entries, count, nil) }
    }
    #if STAGE_TIMES
      StageTimes.mark(.woke)
    #endif
    return callHandlers(polled)
  }

  /// Waits once, until a watched descriptor is ready or `deadline` (nanoseconds on
  /// `CLOCK_MONOTONIC`, nil for none) comes, then calls the handlers of the ready
  /// descriptors in the order the watches were added. The wait never ends before the
  /// deadline (unless a descriptor is ready).
  ///
  /// The deadline is a kernel timer's (a timerfd, armed again only when the deadline
  /// changes): `ppoll`'s own timeout may end up to 0.1 % late, about a millisecond for a
  /// second's wait, which a timer does not. Without a timer (the kernel refused one) it
  /// waits with `ppoll`'s timeout.
  ///
  /// - Parameter onTheInstant: The deadline is one that must be met on its instant (a
  ///   clock's text changing): the timer wakes the thread as much earlier as the kernel's
  ///   wakeups have been late (`WakeLatency`), and the rest is waited out awake,
  ///   checking the descriptors.
  /// - Returns: The number of handlers called; 0 when the deadline came first.
  /// - Throws: `IOError` naming `ppoll` or `timerfd_settime`.
  @discardableResult
  public func runOnce(until deadline: Int64?, onTheInstant: Bool = false) throws -> Int {
    guard let deadline else {
      try disarmTimer()
      return try runOnce(timeout: nil)
    }
    let margin = onTheInstant ? wakeLatency.estimate : 0
    let wakeAt = deadline - margin
    var now = MonotonicClock.now()
    guard deadline > now else { return try runOnce(timeout: .zero) }
    guard let timer else {
      return try runOnce(timeout: .nanoseconds(deadline - now))
    }
    if wakeAt > now {
      if armedDeadline != wakeAt {
        _ = try retryOnInterrupt("timerfd_settime") {
          SystemCall.timerArm(timer.rawValue, wakeAt)
        }
        armedDeadline = wakeAt
      }
      let polled = watches
      prepareEntries(polled)
      entries.append(pollfd(fd: timer.rawValue, events: Int16(POLLIN), revents: 0))
      let count = entries.count
      #if STAGE_TIMES
        StageTimes.mark(.asleep)
      #endif
      let waited = Result {
        try retryOnInterrupt("ppoll") { SystemCall.ppoll(&entries, count, nil) }
      }
      #if STAGE_TIMES
        StageTimes.mark(.woke)
      #endif
      let timerFired = entries[count - 1].revents != 0
      entries.removeLast()
      _ = try waited.get()
      now = MonotonicClock.now()
      let called = callHandlers(polled)
      if timerFired, onTheInstant {
        wakeLatency.observe(lateness: now - wakeAt)
      }
      guard called == 0, onTheInstant else { return called }
    }
    // The last stretch, awake: the descriptors are checked without sleeping until the
    // deadline.
    while now < deadline {
      let called = try runOnce(timeout: .zero)
      if called > 0 {
        return called
      }
      now = MonotonicClock.now()
    }
    return 0
  }

  /// Makes `entries` one `ppoll()` entry per watch of `polled`, in order.
  private func prepareEntries(_ polled: [Watch]) {
    guard !entriesMatchWatches else { return }
    entries = polled.map {
      pollfd(fd: $0.descriptor.rawValue, events: $0.events.rawValue, revents: 0)
    }
    entriesMatchWatches = true
  }

  /// Disarms the timer, so that it neither fires nor stays readable while nothing is due.
  private func disarmTimer() throws {
    guard let timer, armedDeadline != nil else { return }
    _ = try retryOnInterrupt("timerfd_settime") { SystemCall.timerArm(timer.rawValue, 0) }
    armedDeadline = nil
  }

  /// Calls the handler of each entry of `polled` that `ppoll()` reported ready, unless
  /// an earlier handler removed or replaced its watch. Returns how many it called.
  private func callHandlers(_ polled: [Watch]) -> Int {
    var called = 0
    for (watch, entry) in zip(polled, entries) where entry.revents != 0 {
      guard let current = watches.first(where: { $0.descriptor == watch.descriptor }),
        current.serial == watch.serial
      else { continue }
      current.handler(Events(rawValue: entry.revents))
      called += 1
    }
    return called
  }

  /// The `ppoll()` timeout that `runOnce` uses for `timeout`: nil (no limit) for nil,
  /// zero for a zero or negative timeout, else the timeout rounded up to whole
  /// nanoseconds, at most `time_t.max` seconds.
  public static func pollTimeout(_ timeout: Duration?) -> timespec? {
    timeout.map(Self.timespecRoundedUp)
  }

  /// `duration` as a `timespec`, rounded up to whole nanoseconds so that a deadline is
  /// never reported early; zero when it is not positive, saturating at `time_t.max`.
  static func timespecRoundedUp(_ duration: Duration) -> timespec {
    guard duration > .zero else { return timespec(tv_sec: 0, tv_nsec: 0) }
    let (seconds, attoseconds) = duration.components
    let attosecondsPerNanosecond: Int64 = 1_000_000_000
    var wholeSeconds = seconds
    var nanoseconds = (attoseconds + attosecondsPerNanosecond - 1) / attosecondsPerNanosecond
    if nanoseconds == 1_000_000_000 {
      nanoseconds = 0
      wholeSeconds = seconds == .max ? .max : seconds + 1
    }
    guard let limited = time_t(exactly: wholeSeconds) else {
      return timespec(tv_sec: .max, tv_nsec: 0)
    }
    return timespec(tv_sec: limited, tv_nsec: Int(nanoseconds))
  }
}
