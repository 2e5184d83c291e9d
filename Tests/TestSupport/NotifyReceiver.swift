@preconcurrency import Glibc

/// A test's stand-in for systemd's notification socket: it receives the daemon's
/// sd_notify datagrams.
public final class NotifyReceiver {
  /// The socket's path, for `NOTIFY_SOCKET`.
  public let path: String
  private let socket: CInt

  /// A socket bound at `notify` in `folder`.
  public init(folder: String) throws {
    path = folder + "/notify"
    socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    let socket = socket
    let bound = withUnixSocketAddress(of: path) { bind(socket, $0, $1) }
    guard bound == 0 else { throw SpawnError(message: "cannot bind \(path): errno \(errno)") }
  }

  deinit {
    close(socket)
    unlink(path)
  }

  /// The next datagram, split into its `KEY=value` lines; nil after `timeout` seconds.
  public func next(timeout: Double = 10) -> [String]? {
    var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    guard poll(&entry, 1, CInt(timeout * 1000)) > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(socket, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Datagrams until one contains `line` (or starts with it, for `STATUS=`); returns
  /// that datagram.
  public func waitFor(_ line: String, timeout: Double = 10) -> [String]? {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    let deadline = Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9 + timeout
    while true {
      clock_gettime(CLOCK_MONOTONIC, &spec)
      let remaining = deadline - (Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
      guard remaining > 0, let datagram = next(timeout: remaining) else { return nil }
      if datagram.contains(where: { $0 == line || $0.hasPrefix(line) }) {
        return datagram
      }
    }
  }
}
