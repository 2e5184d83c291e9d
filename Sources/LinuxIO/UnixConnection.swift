import CScoreboardLinux
@preconcurrency import Glibc

/// One connection of a Unix-domain stream socket: accepted by a `UnixListener`, or made
/// by a client with `connect(to:timeout:)`.
///
/// The descriptor is non-blocking and close-on-exec. The connection owns it and closes it
/// with `close()`, or when the connection is released.
public final class UnixConnection {
  /// The socket, owned by the connection.
  public let fileDescriptor: FileDescriptor
  private var isClosed = false

  /// Takes ownership of a connected, non-blocking socket.
  init(fileDescriptor: FileDescriptor) {
    self.fileDescriptor = fileDescriptor
  }

  deinit {
    close()
  }

  /// Connects to the socket at `path`, waiting at most `timeout` when its listener's
  /// queue of connections is full.
  ///
  /// - Throws: `IOError` naming `connect` and `path`: `ENOENT` when there is no socket,
  ///   `ECONNREFUSED` when nothing listens on it, `ETIMEDOUT` when the listener did not
  ///   take the connection in time.
  public static func connect(to path: String, timeout: Duration) throws -> UnixConnection {
    let connection = UnixConnection(
      fileDescriptor: FileDescriptor(
        rawValue: try retryOnInterrupt("socket") { SystemCall.unixSocket() })
    )
    // A blocking connect waits for room in the listener's queue for at most the socket's
    // send timeout; a non-blocking one would fail at once.
    try connection.fileDescriptor.setNonBlocking(false)
    let (seconds, attoseconds) = max(timeout, .microseconds(1)).components
    var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    _ = try retryOnInterrupt("setsockopt") {
      SystemCall.setsockopt(
        connection.fileDescriptor.rawValue, SOL_SOCKET, SO_SNDTIMEO, &limit,
        socklen_t(MemoryLayout<timeval>.size))
    }
    do {
      _ = try retryOnInterrupt("connect", path: path) {
        SystemCall.connect(connection.fileDescriptor.rawValue, path)
      }
    } catch let error as IOError where error.errno == .wouldBlock {
      throw IOError(operation: "connect", path: path, errno: .timedOut)
    }
    try connection.fileDescriptor.setNonBlocking()
    return connection
  }

  /// Reads what is available, up to `buffer.count` bytes.
  ///
  /// - Returns: The number of bytes read; 0 when the other end closed the connection.
  /// - Throws: `IOError` naming `read`: `.wouldBlock` when nothing is available yet,
  ///   `ECONNRESET` when the other end left with data unread.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    precondition(!isClosed, "read(into:) after close()")
    return try fileDescriptor.read(into: buffer)
  }

  /// Writes up to `buffer.count` bytes and returns how many were written, which may be
  /// fewer. A peer that is gone is an error (`EPIPE`), never a `SIGPIPE`.
  ///
  /// - Throws: `IOError` naming `send`: `.wouldBlock` when the socket cannot take any
  ///   byte now, `.brokenPipe` or `ECONNRESET` when the other end is gone.
  public func write(_ buffer: UnsafeRawBufferPointer) throws -> Int {
    precondition(!isClosed, "write(_:) after close()")
    return try retryOnInterrupt("send") {
      SystemCall.send(
        fileDescriptor.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
    }
  }

  /// Closes the connection; calling it again does nothing. Remove its `PollLoop` watch
  /// first.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    // Closing a socket reports nothing the caller could act on.
    try? fileDescriptor.close()
  }
}
