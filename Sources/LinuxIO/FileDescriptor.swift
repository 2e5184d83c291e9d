import CScoreboardLinux
@preconcurrency import Glibc

/// An open file descriptor: a file, device, terminal, pipe or socket.
///
/// A plain value: copying it does not duplicate the descriptor, and nothing closes it
/// automatically. Whoever opens a descriptor owns it and closes it once with `close()`;
/// APIs that take one say whether they take ownership.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
  /// The C descriptor number.
  public let rawValue: CInt

  /// Wraps a descriptor number; the caller keeps ownership.
  public init(rawValue: CInt) {
    self.rawValue = rawValue
  }

  /// Descriptor 0, owned by the process.
  public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
  /// Descriptor 1, owned by the process.
  public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
  /// Descriptor 2, owned by the process.
  public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

  /// Opens `path`; the caller owns the returned descriptor.
  ///
  /// - Parameters:
  ///   - mode: Reading, writing or both.
  ///   - options: Flags such as `.nonBlocking`; `.closeOnExec` unless told otherwise.
  ///   - permissions: The mode bits of a file that `.create` creates (before the umask).
  /// - Throws: `IOError` naming `open` and the path.
  public static func open(
    _ path: String, _ mode: AccessMode, options: OpenOptions = [.closeOnExec],
    permissions: mode_t = 0o644
  ) throws -> FileDescriptor {
    let flags = mode.rawValue | options.rawValue
    let descriptor = try retryOnInterrupt("open", path: path) {
      SystemCall.open(path, flags, permissions)
    }
    return FileDescriptor(rawValue: descriptor)
  }

  /// Creates a pipe whose ends are closed on exec; the caller owns both ends.
  ///
  /// - Throws: `IOError` naming `pipe`.
  public static func pipe() throws -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
    var descriptors: [CInt] = [-1, -1]
    _ = try retryOnInterrupt("pipe") { SystemCall.pipe(&descriptors) }
    return (FileDescriptor(rawValue: descriptors[0]), FileDescriptor(rawValue: descriptors[1]))
  }

  /// Closes the descriptor. It is closed afterwards even when this throws, so it is never
  /// retried; `EINTR` counts as success, as it does on Linux.
  ///
  /// - Throws: `IOError` naming `close`, for instance when a device reports a late
  ///   write error.
  public func close() throws {
    guard SystemCall.close(rawValue) == -1 else { return }
    let error = Errno.current
    precondition(error != .badFileDescriptor, "close of a descriptor that is not open")
    if error != .interrupted {
      throw IOError(operation: "close", errno: error)
    }
  }

  /// Switches `O_NONBLOCK` on or off. It is a flag of the open file, shared with every
  /// duplicate of the descriptor (and other processes holding it).
  ///
  /// - Throws: `IOError` naming `fcntl`.
  public func setNonBlocking(_ nonBlocking: Bool = true) throws {
    let flags = try retryOnInterrupt("fcntl") { SystemCall.fcntl(rawValue, F_GETFL) }
    let newFlags = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
    guard newFlags != flags else { return }
    _ = try retryOnInterrupt("fcntl") { SystemCall.fcntl(rawValue, F_SETFL, newFlags) }
  }

  /// Whether the other end hung up: a terminal whose window was closed or whose
  /// connection dropped, the master of a pseudo-terminal closed, a pipe's writer gone
  /// (`poll` reports `POLLHUP` without waiting).
  public var isHungUp: Bool {
    var entry = pollfd(fd: rawValue, events: 0, revents: 0)
    guard (try? retryOnInterrupt("poll", { SystemCall.poll(&entry, 1, 0) })) != nil else {
      return false
    }
    return entry.revents & Int16(POLLHUP) != 0
  }

  /// Whether the descriptor refers to a terminal (`isatty`).
  public var isTerminal: Bool {
    SystemCall.isatty(rawValue)
  }
}
