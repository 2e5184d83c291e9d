@preconcurrency import Glibc

/// One thread's event loop: waits with `poll()` until a watched descriptor is ready or a
/// timeout passes, then calls the handlers of the ready descriptors.
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
  /// What `poll()` is given: one entry per watch, in order, kept from round to round.
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
  /// - Parameter timeout: The longest wait, rounded up to whole milliseconds so that a
  ///   deadline is never reported early; nil waits until a descriptor is ready. A zero or
  ///   negative timeout only checks.
  /// - Returns: The number of handlers called; 0 when the timeout passed.
  /// - Throws: `IOError` naming `poll`.
  @discardableResult
  public func runOnce(timeout: Duration?) throws -> Int {
    let polled = watches
    if !entriesMatchWatches {
      entries = polled.map {
        pollfd(fd: $0.descriptor.rawValue, events: $0.events.rawValue, revents: 0)
      }
      entriesMatchWatches = true
    }
    let milliseconds = Self.pollTimeout(timeout)
    let count = entries.count
    _ = try retryOnInterrupt("poll") { SystemCall.poll(&entries, count, milliseconds) }

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

  /// The `poll()` timeout that `runOnce` uses for `timeout`: -1 for nil, whole
  /// milliseconds rounded up, at most `CInt.max`.
  public static func pollTimeout(_ timeout: Duration?) -> CInt {
    guard let timeout else { return -1 }
    guard timeout > .zero else { return 0 }
    let (seconds, attoseconds) = timeout.components
    let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
    let limit = Int64(CInt.max)
    guard seconds < limit / 1000 else { return CInt.max }
    let fraction = (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
    return CInt(min(seconds * 1000 + fraction, limit))
  }
}
