import LinuxIO
import ScoreboardCore

/// A source of key events (a terminal, an evdev keypad, GPIO buttons) that a poll loop
/// watches.
public protocol Keypad: AnyObject {
  /// The keypad's name in the configuration (`numpad`), carried by its events.
  var name: String { get }

  /// What the keypad waits for: its device becoming readable, and a moment for work
  /// due without input (a debounce period ending, a long press, a matrix rescan).
  var waitingFor: DeviceWait { get }

  /// Reads what is available without blocking and returns the events it holds; call it
  /// when the descriptor of `waitingFor` is ready. Events carry `time` unless the
  /// device timestamps them itself.
  ///
  /// - Throws: `EndOfInput` when the input ended, or an I/O error with context; either
  ///   way the keypad needs reopening.
  func readEvents(at time: Instant) throws -> [KeyEvent]

  /// Does the work due at `now` (the deadline of `waitingFor` has come) and returns
  /// the events it produced.
  func service(at now: Instant) -> [KeyEvent]

  /// Whether the keypad's device is there now (a USB keypad may be unplugged).
  var isOnline: Bool { get }

  /// Whether the keypad reads a terminal that hung up (its window was closed, its
  /// connection dropped): the person at it is gone.
  var terminalHungUp: Bool { get }

  /// Releases the device and puts back what the keypad changed; calling it again does
  /// nothing.
  func close()
}

extension Keypad {
  public func service(at now: Instant) -> [KeyEvent] { [] }

  public var isOnline: Bool { true }

  public var terminalHungUp: Bool { false }
}
