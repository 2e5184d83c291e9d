import LinuxIO
import ScoreboardCore

/// Keys typed on a terminal (standard input or a terminal device such as a serial
/// console), or bytes arriving on a pipe, decoded by `TerminalKeyDecoder`.
///
/// A terminal is switched to keypad input (`TerminalMode`) while the keypad is open and
/// put back by `close()`. Terminals send no key releases, so every key is a `.press`.
public final class TerminalKeypad: Keypad {
  /// The keypad's name in the configuration, carried by its events.
  public let name: String
  /// The device opened (read-only, non-blocking, close-on-exec), owned by the keypad;
  /// or standard input, which the keypad reads but does not close.
  public let fileDescriptor: FileDescriptor
  /// The device's path, or `standard input`, for error messages.
  private let source: String
  private let ownsDescriptor: Bool
  private let terminalMode: TerminalMode?
  /// Whether the keypad reads a terminal (and not a pipe or a file).
  private let readsTerminal: Bool
  /// Whether the keypad reads /dev/null, standard input under systemd.
  private let readsNullDevice: Bool
  private var decoder = TerminalKeyDecoder()
  private var isClosed = false

  /// Readability of the device.
  public var waitingFor: DeviceWait { DeviceWait(descriptor: fileDescriptor, events: .readable) }

  /// Opens the keypad named `name` on `device`, or on standard input when `device` is
  /// nil, and switches it to keypad input if it is a terminal.
  ///
  /// - Throws: `IOError` naming the operation and the device.
  public init(name: String, device: String?) throws {
    self.name = name
    source = device ?? "standard input"
    if let device {
      fileDescriptor = try FileDescriptor.open(
        device, .readOnly, options: [.closeOnExec, .nonBlocking, .noControllingTerminal])
      ownsDescriptor = true
    } else {
      fileDescriptor = .standardInput
      ownsDescriptor = false
    }
    readsTerminal = fileDescriptor.isTerminal
    readsNullDevice = !readsTerminal && Self.isNullDevice(fileDescriptor)
    do {
      terminalMode = readsTerminal ? try TerminalMode(keypadInputOn: fileDescriptor) : nil
    } catch var error as IOError {
      if ownsDescriptor {
        try? fileDescriptor.close()
      }
      error.path = source
      throw error
    }
  }

  deinit {
    close()
  }

  /// Whether `descriptor` is open on /dev/null.
  private static func isNullDevice(_ descriptor: FileDescriptor) -> Bool {
    guard let open = try? descriptor.status(), open.kind == .characterDevice,
      let null = try? FileStatus.ofEntry(at: "/dev/null")
    else { return false }
    return open.identity == null.identity
  }

  /// Reads once what is available (at most 256 bytes) and returns its keys as presses at
  /// `time`. Standard input may be blocking: call this only when it is readable.
  ///
  /// - Throws: `EndOfInput` at the end of a pipe or file, or `IOError` naming `read` and
  ///   the device (errno `.ioError` when a terminal hung up).
  public func readEvents(at time: Instant) throws -> [KeyEvent] {
    precondition(!isClosed, "readEvents(at:) after close()")
    var buffer = [UInt8](repeating: 0, count: 256)
    let count: Int
    do {
      count = try buffer.withUnsafeMutableBytes { try fileDescriptor.read(into: $0) }
    } catch var error as IOError {
      guard error.errno != .wouldBlock else { return [] }
      error.path = source
      throw error
    }
    guard count > 0 else { throw EndOfInput(keypad: name, hadNothingToRead: readsNullDevice) }
    return decoder.decode(buffer[..<count]).map {
      KeyEvent(keypad: name, key: $0, kind: .press, time: time)
    }
  }

  /// Whether the terminal the keypad reads hung up; false for a pipe, which ends instead.
  public var terminalHungUp: Bool {
    readsTerminal && !isClosed && fileDescriptor.isHungUp
  }

  /// Puts the terminal's settings back and closes the device (not standard input);
  /// calling it again does nothing. Errors are ignored: a terminal that went away has no
  /// settings to restore.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    try? terminalMode?.restore()
    if ownsDescriptor {
      try? fileDescriptor.close()
    }
  }
}
