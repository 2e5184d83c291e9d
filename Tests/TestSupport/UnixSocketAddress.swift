@preconcurrency import Glibc

/// Calls `body` with the address of the Unix socket at `path` as a `sockaddr`, and its
/// length. A path longer than `sun_path` holds is cut short.
public func withUnixSocketAddress<Result>(
  of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
) -> Result {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() {
      raw[index] = byte
    }
  }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}
