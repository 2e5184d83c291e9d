import CScoreboardLinux
@preconcurrency import Glibc

/// A listening Unix-domain stream socket at a path in the file system, such as a daemon's
/// control socket.
///
/// The listener owns its descriptor (non-blocking, close-on-exec) and its socket file:
/// `close()`, or releasing the listener, closes the one and removes the other.
public final class UnixListener {
  /// The socket file.
  public let path: String
  /// The listening socket, owned by the listener: watch it for `.readable` and call
  /// `accept()`.
  public let fileDescriptor: FileDescriptor
  /// The socket file this listener created, to remove it only if it is still that file.
  private let file: FileIdentity
  private var isClosed = false

  /// Creates the socket file at `path` and listens on it.
  ///
  /// Something already at `path` is replaced only when it is a stale socket of this
  /// user: a socket file that nothing answers on (the process that made it is gone).
  ///
  /// - Parameters:
  ///   - permissions: The socket file's mode bits; connecting needs write permission.
  ///   - backlog: How many connections may wait to be accepted.
  /// - Throws: `SocketPathTaken` when a live socket answers at `path`, when something
  ///   other than a socket is there, or a socket of another user; `IOError` naming the
  ///   call and `path` for other failures.
  public init(path: String, permissions: mode_t = 0o660, backlog: CInt = 16) throws {
    self.path = path
    let descriptor = FileDescriptor(
      rawValue: try retryOnInterrupt("socket") { SystemCall.unixSocket() })
    do {
      try Self.bind(descriptor, to: path)
    } catch {
      try? descriptor.close()
      throw error
    }
    do {
      _ = try retryOnInterrupt("chmod", path: path) { SystemCall.chmod(path, permissions) }
      _ = try retryOnInterrupt("listen", path: path) {
        SystemCall.listen(descriptor.rawValue, backlog)
      }
      file = try FileStatus.ofEntry(at: path).identity
    } catch {
      _ = SystemCall.unlink(path)
      try? descriptor.close()
      throw error
    }
    fileDescriptor = descriptor
  }

  deinit {
    close()
  }

  /// Accepts one waiting connection.
  ///
  /// - Returns: The connection, which the caller owns; nil when none is waiting.
  /// - Throws: `IOError` naming `accept`, such as `EMFILE` when the process has no
  ///   descriptor left.
  public func accept() throws -> UnixConnection? {
    precondition(!isClosed, "accept() after close()")
    do {
      let descriptor = try retryOnInterrupt("accept", path: path) {
        SystemCall.accept(fileDescriptor.rawValue)
      }
      return UnixConnection(fileDescriptor: FileDescriptor(rawValue: descriptor))
    } catch let error as IOError
      where error.errno == .wouldBlock || error.errno.rawValue == ECONNABORTED
    {
      return nil
    }
  }

  /// Stops listening and removes the socket file, unless another file has replaced it;
  /// calling it again does nothing. Remove the `PollLoop` watch first.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    if let status = try? FileStatus.ofEntry(at: path), status.identity == file {
      _ = SystemCall.unlink(path)
    }
    // Closing a socket reports nothing the caller could act on.
    try? fileDescriptor.close()
  }

  /// Binds `descriptor` to `path`, first removing a stale socket file of this user
  /// there.
  private static func bind(_ descriptor: FileDescriptor, to path: String) throws {
    do {
      _ = try retryOnInterrupt("bind", path: path) { SystemCall.bind(descriptor.rawValue, path) }
      return
    } catch let error as IOError where error.errno == .addressInUse {
      let status = try FileStatus.ofEntry(at: path)
      guard status.kind == .socket else {
        throw SocketPathTaken(path: path, reason: .notASocket(status.kind))
      }
      guard status.owner == SystemCall.effectiveUserID() else {
        throw SocketPathTaken(path: path, reason: .otherOwner(status.owner))
      }
      guard try !isAnswering(path) else { throw SocketPathTaken(path: path, reason: .live) }
    }
    _ = SystemCall.unlink(path)
    _ = try retryOnInterrupt("bind", path: path) { SystemCall.bind(descriptor.rawValue, path) }
  }

  /// Whether a listener answers a connection to the socket file at `path`.
  private static func isAnswering(_ path: String) throws -> Bool {
    let probe = FileDescriptor(
      rawValue: try retryOnInterrupt("socket") { SystemCall.unixSocket() })
    defer { try? probe.close() }
    guard SystemCall.connect(probe.rawValue, path) == -1 else { return true }
    // Refused: nobody listens. Gone: removed meanwhile. Would block: the listener's queue
    // is full, so it is alive. Anything else (no permission) may well be a live listener.
    let error = Errno.current
    return error != .connectionRefused && error != .noSuchFileOrDirectory
  }
}
