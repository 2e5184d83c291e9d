@preconcurrency import Glibc

/// A connection of a test or a benchmark to the daemon's control socket: one request
/// line, one answer line.
public final class ControlClient {
  private let socket: CInt
  private var buffer: [UInt8] = []

  /// Connects to `path`, trying again for up to `timeout` seconds until the daemon,
  /// which may still be starting, takes the connection.
  public init(path: String, timeout: Double = 10) throws {
    var socket: CInt = -1
    var error: CInt = 0
    // No event tells when the socket starts listening; the connection is the condition.
    let connected = waitUntil(timeout: timeout) {
      socket = Self.connect(to: path)
      error = errno
      return socket >= 0
    }
    guard connected else {
      throw ConnectionError(description: "cannot connect to \(path): errno \(error)")
    }
    self.socket = socket
  }

  /// A stream socket connected to `path`, or -1 with `errno` set.
  private static func connect(to path: String) -> CInt {
    let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return -1 }
    let connected = withUnixSocketAddress(of: path) { Glibc.connect(fd, $0, $1) }
    guard connected == 0 else {
      let error = errno
      close(fd)
      errno = error
      return -1
    }
    return fd
  }

  deinit {
    close(socket)
  }

  /// Sends one request and returns the answer line, or nil when the connection ended or
  /// no answer came within `timeout` seconds.
  public func request(_ line: String, timeout: Double = 10) -> String? {
    guard send(line) else { return nil }
    return readLine(timeout: timeout)
  }

  /// Sends one request line without waiting for its answer.
  @discardableResult
  public func send(_ line: String) -> Bool {
    let bytes = Array((line + "\n").utf8)
    return Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
  }

  /// The next line the daemon sends.
  public func readLine(timeout: Double = 10) -> String? {
    let deadline = secondsNow() + timeout
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      let remaining = deadline - secondsNow()
      guard remaining > 0 else { return nil }
      var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, CInt(remaining * 1000) + 1) > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = recv(socket, &chunk, chunk.count, 0)
      guard count > 0 else { return nil }
      buffer += chunk[..<count]
    }
  }
}

/// Why a control connection could not be made.
public struct ConnectionError: Error, CustomStringConvertible {
  public var description: String
}
