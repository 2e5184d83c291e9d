@preconcurrency import Glibc

/// One thread's event loop: waits with `epoll` until a watched descriptor is ready or a
/// timeout (to the nanosecond) passes, then calls the handlers of the ready descriptors.
///
/// The descriptors stay in the kernel's interest list from one round to the next, so a
/// wait costs the kernel the ready descriptors alone (`ppoll` looks at every descriptor
/// twice a wait and hangs the thread on each one's queue). A descriptor that `epoll`
/// cannot watch (a regular file, `/dev/null`) is ready at every round, as `poll` says.
///
/// Each descriptor has at most one watch. The loop does not own the descriptors: remove
/// a watch before closing its descriptor.
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
    /// The descriptor was not open when it was watched (always reported, at every
    /// round). The corresponding C constant is `POLLNVAL`.
    public static let invalid = Events(rawValue: Int16(POLLNVAL))
  }

  /// Called with the events that occurred on a watched descriptor.
  public typealias Handler = (Events) -> Void

  /// When a watch's handler is called among those of the same round.
  public enum Priority: Sendable {
    /// Before the others: input from people (a keypad), which a burst from the network
    /// must not hold up.
    case first
    /// After those of `.first`.
    case normal
  }

  private struct Watch {
    var descriptor: FileDescriptor
    var events: Events
    var handler: Handler
    var priority: Priority
    /// Tells this watch apart from a later one on a reused descriptor number; the key
    /// its events come with.
    var serial: UInt64
    var kind: Kind
  }

  /// How the kernel watches a descriptor.
  private enum Kind {
    /// In the `epoll` interest list.
    case listed
    /// `epoll` refused it (EPERM: a regular file, `/dev/null`): ready at every round.
    case alwaysReady
    /// It was not open: `.invalid` at every round.
    case notOpen
  }

  private var watches: [Watch] = []
  /// The last serial given; 0 is the timer's key.
  private var nextSerial: UInt64 = 0
  /// The `epoll` instance; nil when the kernel would not make one (`waitError` says why).
  private var poller: FileDescriptor?
  private var waitError: IOError?
  /// The keys and events of the ready descriptors, as the last wait found them.
  private let readyKeys: UnsafeMutablePointer<UInt64>
  private let readyEvents: UnsafeMutablePointer<UInt32>
  /// How many ready descriptors one wait takes at most; the others come next round.
  private static let readyCapacity = 64
  /// The key of the timer's events.
  private static let timerKey: UInt64 = 0
  /// The kernel timer that `runOnce(until:)` waits on; nil when the kernel would not
  /// make one.
  private let timer: FileDescriptor?
  /// The instant the timer is armed for (nanoseconds on `CLOCK_MONOTONIC`); nil while
  /// it is disarmed.
  private var armedDeadline: Int64?
  /// How late the timer's wakeups have been: how early a wait on the instant wakes.
  private var wakeLatency = WakeLatency()
  /// The entries `firstIsReady()` polls, kept from one call to the next.
  private var firstEntries: [pollfd] = []

  /// An empty loop, with its `epoll` instance and its timer (a timerfd, held from the
  /// start so that the loop's descriptors do not change with its first deadline). When
  /// the kernel refuses the `epoll` instance, every wait throws.
  public init() {
    readyKeys = .allocate(capacity: Self.readyCapacity)
    readyEvents = .allocate(capacity: Self.readyCapacity)
    let made = SystemCall.epollCreate()
    if made >= 0 {
      poller = FileDescriptor(rawValue: made)
    } else {
      waitError = IOError(operation: "epoll_create1", errno: .current)
    }
    var timerDescriptor = SystemCall.timerCreate()
    if timerDescriptor >= 0, made >= 0,
      SystemCall.epollControl(made, .add, timerDescriptor, UInt32(POLLIN), Self.timerKey) != 0
    {
      _ = SystemCall.close(timerDescriptor)
      timerDescriptor = -1
    }
    timer = timerDescriptor >= 0 ? FileDescriptor(rawValue: timerDescriptor) : nil
  }

  deinit {
    if let timer {
      _ = SystemCall.close(timer.rawValue)
    }
    if let poller {
      _ = SystemCall.close(poller.rawValue)
    }
    readyKeys.deallocate()
    readyEvents.deallocate()
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
  ///
  /// - Parameter priority: Where its handler comes among the round's: the handlers of
  ///   `.first` watches are called before the others, each group in the order added.
  @discardableResult
  public func watch(
    _ descriptor: FileDescriptor, for events: Events, priority: Priority = .normal,
    handler: @escaping Handler
  ) -> Token {
    nextSerial += 1
    let existing = watches.firstIndex { $0.descriptor == descriptor }
    let kind = list(
      descriptor, for: events, key: nextSerial,
      replacing: existing.map { watches[$0].kind == .listed } ?? false)
    let watch = Watch(
      descriptor: descriptor, events: events, handler: handler, priority: priority,
      serial: nextSerial, kind: kind)
    if let existing, watches[existing].priority == priority {
      watches[existing] = watch
    } else {
      if let existing {
        watches.remove(at: existing)
      }
      let position =
        priority == .first
        ? watches.firstIndex { $0.priority != .first } ?? watches.endIndex : watches.endIndex
      watches.insert(watch, at: position)
    }
    return Token(serial: nextSerial)
  }

  /// Removes the watch `token` names, if it is still in place.
  public func removeWatch(_ token: Token) {
    guard let index = watches.firstIndex(where: { $0.serial == token.serial }) else { return }
    unlist(watches.remove(at: index))
  }

  /// Stops watching `descriptor`; nothing happens when it is not watched.
  public func removeWatch(_ descriptor: FileDescriptor) {
    guard let index = watches.firstIndex(where: { $0.descriptor == descriptor }) else { return }
    unlist(watches.remove(at: index))
  }

  /// Puts `descriptor` in the interest list with `key`, or changes its entry there.
  private func list(
    _ descriptor: FileDescriptor, for events: Events, key: UInt64, replacing: Bool
  ) -> Kind {
    guard let poller else { return .listed }
    let bits = UInt32(UInt16(bitPattern: events.rawValue))
    let (first, second): (SystemCall.EpollOperation, SystemCall.EpollOperation) =
      replacing ? (.change, .add) : (.add, .change)
    if SystemCall.epollControl(poller.rawValue, first, descriptor.rawValue, bits, key) == 0 {
      return .listed
    }
    var error = Errno.current
    // An entry already there (or gone): the other operation.
    if error == (replacing ? .noSuchFileOrDirectory : Errno(rawValue: EEXIST)) {
      if SystemCall.epollControl(poller.rawValue, second, descriptor.rawValue, bits, key) == 0 {
        return .listed
      }
      error = Errno.current
    }
    return error == .notPermitted ? .alwaysReady : .notOpen
  }

  /// Takes `watch`'s descriptor out of the interest list.
  private func unlist(_ watch: Watch) {
    guard watch.kind == .listed, let poller else { return }
    // Fails only when the descriptor was closed already (and its entry went with it).
    _ = SystemCall.epollControl(poller.rawValue, .remove, watch.descriptor.rawValue, 0, 0)
  }

  /// Waits once, then calls the handler of each ready descriptor: those watched `.first`
  /// first, each group in the order the watches were added.
  ///
  /// A watch removed or replaced by an earlier handler of the same round is not called.
  ///
  /// - Parameter timeout: The longest wait, to the nanosecond (`epoll_pwait2`: the next
  ///   step of a bit-banged display may be 100 µs away), never reported early; nil waits
  ///   until a descriptor is ready. A zero or negative timeout only checks.
  /// - Returns: The number of handlers called; 0 when the timeout passed.
  /// - Throws: `IOError` naming `epoll_pwait2` (or `epoll_create1` when the loop has no
  ///   `epoll` instance).
  @discardableResult
  public func runOnce(timeout: Duration?) throws -> Int {
    if timeout.map({ $0 > .zero }) ?? true {
      // The timer is not waited for here: armed, it would end this wait.
      try disarmTimer()
    }
    let polled = watches
    let count = try wait(polled, timeout: Self.pollTimeout(timeout))
    return callHandlers(polled, count)
  }

  /// Waits once, until a watched descriptor is ready or `deadline` (nanoseconds on
  /// `CLOCK_MONOTONIC`, nil for none) comes, then calls the handlers of the ready
  /// descriptors as `runOnce(timeout:)` does. The wait never ends before the deadline
  /// (unless a descriptor is ready).
  ///
  /// The deadline is a kernel timer's (a timerfd, armed again only when the deadline
  /// changes): the wait's own timeout may end up to 0.1 % late, about a millisecond for
  /// a second's wait, which a timer does not. Without a timer (the kernel refused one)
  /// it waits with the wait's timeout.
  ///
  /// - Parameter onTheInstant: The deadline is one that must be met on its instant (a
  ///   clock's text changing): the timer wakes the thread as much earlier as the kernel's
  ///   wakeups have been late (`WakeLatency`), and the rest is waited out awake,
  ///   checking the descriptors.
  /// - Returns: The number of handlers called; 0 when the deadline came first.
  /// - Throws: `IOError` naming `epoll_pwait2` or `timerfd_settime`.
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
      let count = try wait(polled, timeout: nil)
      if onTheInstant {
        now = MonotonicClock.now()
        if (0..<count).contains(where: { readyKeys[$0] == Self.timerKey }) {
          wakeLatency.observe(lateness: now - wakeAt)
        }
      }
      let called = callHandlers(polled, count)
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

  /// Whether a descriptor watched `.first` (a keypad) is ready now, without waiting or
  /// calling any handler: work that a handler does in a batch (the lines of a client,
  /// the commands of a broker) stops early for it and leaves the rest to a later round.
  /// One `poll` of those descriptors; none when no watch is `.first`.
  public func firstIsReady() -> Bool {
    firstEntries.removeAll(keepingCapacity: true)
    for watch in watches {
      guard watch.priority == .first else { break }
      if watch.kind == .listed {
        firstEntries.append(
          pollfd(fd: watch.descriptor.rawValue, events: watch.events.rawValue, revents: 0))
      }
    }
    guard !firstEntries.isEmpty else { return false }
    let ready = firstEntries.withUnsafeMutableBufferPointer { entries in
      try? retryOnInterrupt("poll") { SystemCall.poll(entries.baseAddress, entries.count, 0) }
    }
    return (ready ?? 0) > 0
  }

  /// Waits until a descriptor of the interest list is ready or `timeout` passes (only
  /// checks when one of `polled` is always ready); the ready keys and events are in
  /// `readyKeys` and `readyEvents`.
  ///
  /// - Returns: How many descriptors are ready.
  private func wait(_ polled: [Watch], timeout: timespec?) throws -> Int {
    guard poller != nil else {
      throw waitError ?? IOError(operation: "epoll_create1", errno: Errno(rawValue: ENOMEM))
    }
    var limit = timeout
    if polled.contains(where: { $0.kind != .listed }) {
      limit = timespec(tv_sec: 0, tv_nsec: 0)
    }
    #if STAGE_TIMES
      StageTimes.mark(.asleep)
    #endif
    var count = 0
    // `dropStaleEntries` may replace the instance.
    while let poller {
      count = Int(
        try retryOnInterrupt("epoll_pwait2") {
          if var limit {
            SystemCall.epollWait(
              poller.rawValue, readyKeys, readyEvents, Self.readyCapacity, &limit)
          } else {
            SystemCall.epollWait(poller.rawValue, readyKeys, readyEvents, Self.readyCapacity, nil)
          }
        })
      guard dropStaleEntries(polled, count) else { break }
    }
    #if STAGE_TIMES
      StageTimes.mark(.woke)
    #endif
    return count
  }

  /// Disarms the timer, so that it neither fires nor stays readable while nothing is due.
  private func disarmTimer() throws {
    guard let timer, armedDeadline != nil else { return }
    _ = try retryOnInterrupt("timerfd_settime") { SystemCall.timerArm(timer.rawValue, 0) }
    armedDeadline = nil
  }

  /// Calls the handler of each watch of `polled` that the wait found ready (its key among
  /// the first `count` ready ones), or that is always ready, in order, unless an earlier
  /// handler removed or replaced its watch. Returns how many it called.
  private func callHandlers(_ polled: [Watch], _ count: Int) -> Int {
    var called = 0
    // By index, each member read in place: a copy of a watch would retain its handler.
    for position in polled.indices {
      let serial = polled[position].serial
      let events: Events
      switch polled[position].kind {
      case .listed:
        guard let index = (0..<count).first(where: { readyKeys[$0] == serial }) else {
          continue
        }
        events = Events(rawValue: Int16(truncatingIfNeeded: readyEvents[index]))
      case .alwaysReady:
        // What `poll` says of a file with no wait queue: readable and writable.
        events = polled[position].events.intersection([.readable, .writable])
      case .notOpen:
        events = .invalid
      }
      guard !events.isEmpty, let current = watches.firstIndex(where: { $0.serial == serial })
      else { continue }
      watches[current].handler(events)
      called += 1
    }
    return called
  }

  /// A ready key that is neither the timer's nor a watch's belongs to an entry left in
  /// the interest list by a descriptor closed before its watch was removed, whose file
  /// lives on (another descriptor of it): it would end every wait at once. The interest
  /// list is then made again, with the watches alone.
  ///
  /// - Returns: Whether it was, so that the wait is made again.
  private func dropStaleEntries(_ polled: [Watch], _ count: Int) -> Bool {
    let isStale = (0..<count).contains { index in
      let key = readyKeys[index]
      return key != Self.timerKey && !polled.contains { $0.serial == key }
    }
    guard isStale, let old = poller else { return false }
    let made = SystemCall.epollCreate()
    guard made >= 0 else { return false }
    _ = SystemCall.close(old.rawValue)
    poller = FileDescriptor(rawValue: made)
    if let timer {
      _ = SystemCall.epollControl(made, .add, timer.rawValue, UInt32(POLLIN), Self.timerKey)
    }
    for index in watches.indices {
      watches[index].kind = list(
        watches[index].descriptor, for: watches[index].events, key: watches[index].serial,
        replacing: false)
    }
    return true
  }

  /// The `epoll_pwait2()` timeout that `runOnce` uses for `timeout`: nil (no limit) for nil,
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
