import LinuxIO
import ScoreboardCore

/// A source of key events (a terminal, an evdev keypad, GPIO buttons) that a poll loop
/// watches.
public protocol Keypad: AnyObject {
  /// The keypad's name in the configuration (`numpad`), carried by its events.
  var name: String { get }

  /// The descriptor to watch for readability; owned by the keypad.
  var fileDescriptor: FileDescriptor { get }

  /// Reads what is available without blocking and returns the events it holds; call it
  /// when `fileDescriptor` is readable. Events carry `time`.
  ///
  /// - Throws: `EndOfInput` when the input ended, or an I/O error with context; either
  ///   way the keypad needs reopening.
  func readEvents(at time: Instant) throws -> [KeyEvent]

  /// Releases the device and puts back what the keypad changed; calling it again does
  /// nothing.
  func close()
}
