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

  /// An empty loop.
  public init() {}

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
    if !entriesMatchWatches {
      entries = polled.map {
        pollfd(fd: $0.descriptor.rawValue, events: $0.events.rawValue, revents: 0)
      }
      entriesMatchWatches = true
    }
    let count = entries.count
    if var limit = Self.pollTimeout(timeout) {
      _ = try retryOnInterrupt("ppoll") { SystemCall.ppoll(&entries, count, &limit) }
    } else {
      _ = try retryOnInterrupt("ppoll") { SystemCall.ppoll(&entries, count, nil) }
    }

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
