@preconcurrency import Glibc

/// Leaves a socket file at `path` that nothing listens on, as a daemon killed with
/// SIGKILL leaves its control socket.
func makeStaleSocket(at path: String) throws {
  let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
  guard descriptor != -1 else { throw StaleSocketError(errno: errno) }
  defer { close(descriptor) }
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { buffer in
    buffer.copyBytes(from: path.utf8.prefix(buffer.count - 1))
  }
  let result = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard result == 0 else { throw StaleSocketError(errno: errno) }
}

struct StaleSocketError: Error {
  var errno: CInt
}
