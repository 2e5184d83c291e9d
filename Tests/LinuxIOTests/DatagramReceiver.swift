@preconcurrency import Glibc
import LinuxIO

/// A Unix datagram socket standing in for systemd's notification socket, receiving what
/// a `SystemdNotifier` sends.
final class DatagramReceiver {
  private let socket: CInt

  /// Binds to `address`: a path, or an abstract name written with a leading `@`.
  init(address: String) throws {
    socket = Glibc.socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard socket != -1 else { throw Errno.current }
    var name = Array(address.utf8)
    if name.first == UInt8(ascii: "@") {
      name[0] = 0
    }
    var storage = sockaddr_un()
    storage.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: name) }
    let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
    let bound = withUnsafePointer(to: storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    guard bound == 0 else {
      let error = Errno.current
      close(socket)
      throw error
    }
  }

  deinit {
    close(socket)
  }

  /// The text of every datagram waiting, oldest first, without waiting for more.
  func receive() -> [String] {
    var datagrams: [String] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = recv(socket, &buffer, buffer.count, CInt(MSG_DONTWAIT))
      guard count >= 0 else { return datagrams }
      datagrams.append(String(decoding: buffer[..<count], as: UTF8.self))
    }
  }
}
