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
  private let file: (device: dev_t, inode: ino_t)
  private var isClosed = false

  /// Creates the socket file at `path` and listens on it.
  ///
  /// A socket file already at `path` is replaced only when it is stale: when nothing
  /// answers a connection to it (the process that made it is gone).
  ///
  /// - Parameters:
  ///   - permissions: The socket file's mode bits; connecting needs write permission.
  ///   - backlog: How many connections may wait to be accepted.
  /// - Throws: `IOError` naming the call and `path`: `bind` with `.addressInUse` when a
  ///   live socket answers at `path`, with `.fileExists` when a file that is not a
  ///   socket is in the way.
  public init(path: String, permissions: mode_t = 0o660, backlog: CInt = 16) throws {
    self.path = path
    let descriptor = FileDescriptor(
      rawValue: try retryOnInterrupt("socket") { sbl_unix_socket() })
    do {
      try Self.bind(descriptor, to: path)
    } catch {
      try? descriptor.close()
      throw error
    }
    do {
      _ = try retryOnInterrupt("chmod", path: path) { chmod(path, permissions) }
      _ = try retryOnInterrupt("listen", path: path) { listen(descriptor.rawValue, backlog) }
      let status = try Self.status(of: path)
      file = (status.st_dev, status.st_ino)
    } catch {
      unlink(path)
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
        sbl_unix_accept(fileDescriptor.rawValue)
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
    if let status = try? Self.status(of: path), status.st_dev == file.device,
      status.st_ino == file.inode
    {
      unlink(path)
    }
    // Closing a socket reports nothing the caller could act on.
    try? fileDescriptor.close()
  }

  /// Binds `descriptor` to `path`, first removing a stale socket file there.
  private static func bind(_ descriptor: FileDescriptor, to path: String) throws {
    do {
      _ = try retryOnInterrupt("bind", path: path) { sbl_unix_bind(descriptor.rawValue, path) }
      return
    } catch let error as IOError where error.errno == .addressInUse {
      guard try status(of: path).st_mode & S_IFMT == S_IFSOCK else {
        throw IOError(operation: "bind", path: path, errno: .fileExists)
      }
      guard try !isAnswering(path) else { throw error }
    }
    unlink(path)
    _ = try retryOnInterrupt("bind", path: path) { sbl_unix_bind(descriptor.rawValue, path) }
  }

  /// Whether a listener answers a connection to the socket file at `path`.
  private static func isAnswering(_ path: String) throws -> Bool {
    let probe = try retryOnInterrupt("socket") { sbl_unix_socket() }
    defer { Glibc.close(probe) }
    guard sbl_unix_connect(probe, path) == -1 else { return true }
    // Refused: nobody listens. Gone: removed meanwhile. Anything else (a full queue,
    // no permission) may well be a live listener.
    let error = Errno.current
    return error != .connectionRefused && error != .noSuchFileOrDirectory
  }

  private static func status(of path: String) throws -> stat {
    var status = stat()
    _ = try retryOnInterrupt("lstat", path: path) { lstat(path, &status) }
    return status
  }
}
