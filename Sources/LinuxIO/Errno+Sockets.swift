@preconcurrency import Glibc

extension Errno {
  /// Something already uses the address, such as a socket file another process listens
  /// on. The corresponding C constant is `EADDRINUSE`.
  public static let addressInUse = Errno(rawValue: EADDRINUSE)
  /// Nothing listens at the address (a stale socket file). The corresponding C constant
  /// is `ECONNREFUSED`.
  public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  /// The other end closed the connection with data still unread. The corresponding C
  /// constant is `ECONNRESET`.
  public static let connectionReset = Errno(rawValue: ECONNRESET)
  /// A wait with a time limit gave up. The corresponding C constant is `ETIMEDOUT`.
  public static let timedOut = Errno(rawValue: ETIMEDOUT)
  /// A file is in the way. The corresponding C constant is `EEXIST`.
  public static let fileExists = Errno(rawValue: EEXIST)
}
