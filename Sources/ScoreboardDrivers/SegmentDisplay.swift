import LinuxIO
import ScoreboardCore

/// A sink for frames: a row of seven-segment cells somewhere (a terminal, a serial
/// display, LEDs driven over GPIO lines).
///
/// A display that writes at once needs nothing more than `show`. One on a slow or
/// flaky wire tells the event loop what it waits for (`waitingFor`) and is called back
/// through `service` when that comes; it never blocks the loop.
public protocol SegmentDisplay: AnyObject {
  /// The display's name in the configuration (`main`).
  var name: String { get }

  /// Takes `frame` as what the display should show from `now` on, sending only what
  /// changed. A display whose wire is busy keeps just the latest frame.
  ///
  /// - Throws: An I/O error of the display's device, with context, from displays that
  ///   have no recovery of their own.
  func show(_ frame: Frame, at now: Instant) throws

  /// What the display waits for before it can go on.
  var waitingFor: DeviceWait { get }

  /// Goes on with pending work: the descriptor of `waitingFor` reported `events`, or
  /// its deadline has come (then `events` is empty).
  func service(_ events: PollLoop.Events, at now: Instant)

  /// When the display's periodic refresh comes due: all it shows sent again, for a
  /// device that lost power by itself and came back blank without telling. Nil when
  /// none is due (the device is offline, or has nothing to show yet) or ever.
  ///
  /// The refresh is not a deadline of `waitingFor`: under systemd the daemon lets it
  /// ride on the watchdog's pings, a wakeup it makes anyway, and a frame shown once it is
  /// due takes it along. Only without a watchdog does the loop wake for it.
  var refreshDueAt: Instant? { get }

  /// Sends again all the display shows, if its periodic refresh is due.
  func refreshIfDue(at now: Instant)

  /// Whether the display's device is reachable now.
  var isOnline: Bool { get }

  /// Whether the display draws on a terminal that hung up (its window was closed, its
  /// connection dropped): nobody sees it any more.
  var terminalHungUp: Bool { get }

  /// Leaves the display in its final state: shows `finalFrame` when given, then releases
  /// the display. Errors are ignored, as the program is ending.
  func shutdown(showing finalFrame: Frame?)
}

extension SegmentDisplay {
  public var waitingFor: DeviceWait { .nothing }

  public func service(_ events: PollLoop.Events, at now: Instant) {}

  public var refreshDueAt: Instant? { nil }

  public func refreshIfDue(at now: Instant) {}

  public var isOnline: Bool { true }

  public var terminalHungUp: Bool { false }
}
