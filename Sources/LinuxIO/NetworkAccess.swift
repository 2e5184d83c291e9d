@preconcurrency import Glibc

/// Whether this process may open network sockets at all: a sandboxed service
/// (`RestrictAddressFamilies=AF_UNIX`) may not.
public enum NetworkAccess {
  /// Nil when a TCP socket over IPv4 or IPv6 can be opened; otherwise the error of the
  /// attempt (`EAFNOSUPPORT` under systemd's address-family filter).
  public static func refusal() -> Errno? {
    var error: Errno?
    for family in [AF_INET, AF_INET6] {
      let descriptor = SystemCall.internetSocket(family: family)
      if descriptor >= 0 {
        _ = SystemCall.close(descriptor)
        return nil
      }
      error = error ?? Errno.current
    }
    return error
  }
}
