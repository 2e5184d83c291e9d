import CScoreboardLinux

/// A pseudo-terminal pair: a program opens `slavePath` as if it were a serial port or
/// terminal, and the master side plays the device at the other end of the line.
public struct PseudoTerminal: Sendable {
  /// The master side (read-write, close-on-exec, no controlling terminal). The caller of
  /// `open()` owns it; the pair disappears when it and every slave descriptor are closed.
  public let master: FileDescriptor
  /// The slave device, such as `/dev/pts/3`.
  public let slavePath: String

  /// Opens a new pseudo-terminal pair (`posix_openpt`, `grantpt`, `unlockpt`,
  /// `ptsname_r`).
  ///
  /// - Throws: `IOError` naming `posix_openpt`.
  public static func open() throws -> PseudoTerminal {
    try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { path in
      let master = try retryOnInterrupt("posix_openpt") {
        SystemCall.openPseudoTerminal(path.baseAddress, path.count)
      }
      return PseudoTerminal(
        master: FileDescriptor(rawValue: master), slavePath: String(cString: path.baseAddress!))
    }
  }
}
