/// Random bytes from the kernel's cryptographic generator (`getrandom`), for secrets such
/// as the web console's pairing codes and device tokens.
public enum SecureRandom {
  /// `count` random bytes.
  ///
  /// - Throws: `IOError` when the kernel gives fewer (its pool not ready yet, early in
  ///   boot, or the call refused by a seccomp filter).
  public static func bytes(_ count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = try retryOnInterrupt("getrandom") {
        bytes.withUnsafeMutableBytes {
          SystemCall.randomBytes($0.baseAddress! + filled, count - filled)
        }
      }
      guard got > 0 else {
        throw IOError(operation: "getrandom", errno: .wouldBlock)
      }
      filled += got
    }
    return bytes
  }
}
