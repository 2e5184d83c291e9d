@preconcurrency import Glibc

/// A terminal switched into the input mode of an interactive keypad, and the settings to
/// put back.
///
/// In keypad mode every byte is delivered as soon as it is typed (no line editing, no
/// echo, `VMIN` 1, `VTIME` 0), Enter arrives as `\r` and Ctrl-S/Ctrl-Q are ordinary
/// bytes. Ctrl-C still raises `SIGINT`, for the program to handle; Ctrl-Z and Ctrl-\ are
/// disabled. Output processing stays on, so newlines written to the terminal still
/// return the carriage.
///
/// The mode does not own the descriptor: call `restore()` before closing it.
public final class TerminalMode {
  /// The terminal whose settings changed.
  public let fileDescriptor: FileDescriptor
  private let savedAttributes: termios
  private var isRestored = false

  /// Saves the settings of the terminal `descriptor` and switches it to keypad mode.
  ///
  /// - Throws: `IOError` naming `tcgetattr` (errno `.notTerminal` when the descriptor
  ///   is not a terminal) or `tcsetattr`.
  public init(keypadInputOn descriptor: FileDescriptor) throws {
    fileDescriptor = descriptor
    savedAttributes = try Self.attributes(of: descriptor)

    var attributes = savedAttributes
    attributes.c_lflag &= ~tcflag_t(ICANON | ECHO | ECHONL | IEXTEN)
    attributes.c_lflag |= tcflag_t(ISIG)
    attributes.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR | ISTRIP)
    withUnsafeMutableBytes(of: &attributes.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
      // _POSIX_VDISABLE, which is 0 on Linux, switches a control character off.
      characters[Int(VSUSP)] = 0
      characters[Int(VQUIT)] = 0
    }
    try Self.setAttributes(attributes, of: descriptor)
  }

  /// Puts back the settings saved when the mode was entered. Calling it again does
  /// nothing, also after a failure (a terminal that went away stays failed).
  ///
  /// - Throws: `IOError` naming `tcsetattr`.
  public func restore() throws {
    guard !isRestored else { return }
    isRestored = true
    try Self.setAttributes(savedAttributes, of: fileDescriptor)
  }

  private static func attributes(of descriptor: FileDescriptor) throws -> termios {
    var attributes = termios()
    _ = try retryOnInterrupt("tcgetattr") {
      SystemCall.tcgetattr(descriptor.rawValue, &attributes)
    }
    return attributes
  }

  private static func setAttributes(_ attributes: termios, of descriptor: FileDescriptor) throws {
    var attributes = attributes
    _ = try retryOnInterrupt("tcsetattr") {
      SystemCall.tcsetattr(descriptor.rawValue, TCSANOW, &attributes)
    }
  }
}
