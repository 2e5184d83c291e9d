@preconcurrency import Glibc

extension Errno {
  /// Something already uses the address, such as a socket file another process listens
  /// on. The corresponding C constant is `EADDRINUSE`.
  public static let addressInUse = Errno(rawValue: EADDRINUSE)
  /// Nothing listens at the address (a stale socket file). The corresponding C constant
  /// is `ECONNREFUSED`.
  public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  /// A wait with a time limit gave up. The corresponding C constant is `ETIMEDOUT`.
  public static let timedOut = Errno(rawValue: ETIMEDOUT)
  /// A file is in the way. The corresponding C constant is `EEXIST`.
  public static let fileExists = Errno(rawValue: EEXIST)
}
