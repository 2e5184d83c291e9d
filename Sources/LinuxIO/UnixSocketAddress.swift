@preconcurrency import Glibc

/// The address of a Unix domain socket as `sendto` takes it: a filesystem path
/// (`/run/systemd/notify`), or a name in the abstract namespace written with a leading
/// `@` (`@scoreboardd`), the notation of `NOTIFY_SOCKET` and `ss`.
struct UnixSocketAddress {
  private var address = sockaddr_un()
  private let length: socklen_t

  /// Encodes `text`: a path ends with a NUL byte; an abstract name starts with one in
  /// place of the `@`, and its length alone tells where it ends.
  ///
  /// - Throws: `.invalidArgument` for text that starts with neither `/` nor `@`, or an
  ///   empty abstract name; `ENAMETOOLONG` when it does not fit in `sun_path`.
  init(_ text: String) throws(Errno) {
    var bytes = Array(text.utf8)
    switch bytes.first {
    case UInt8(ascii: "/"):
      bytes.append(0)
    case UInt8(ascii: "@") where bytes.count > 1:
      bytes[0] = 0
    default:
      throw .invalidArgument
    }
    guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else {
      throw Errno(rawValue: ENAMETOOLONG)
    }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
  }

  /// Calls `body` with the address as a `sockaddr` and its length.
  func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result)
    -> Result
  {
    withUnsafePointer(to: address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }
}
