@preconcurrency import Glibc

/// A file that holds a secret, such as the password of the MQTT broker: read only when
/// nobody but its owner can read it.
public enum SecretFile {
  /// The first line of the regular file at `path`, without its line end.
  ///
  /// - Throws: `SecretFileError` when its group or other users may read the file;
  ///   `NotARegularFile` or `IOError` when it cannot be read.
  public static func firstLine(of path: String) throws -> String {
    let bytes = try FileDescriptor.readRegularFile(path, limit: 4096)
    var raw = stat()
    _ = try retryOnInterrupt("stat", path: path) { SystemCall.statat(AT_FDCWD, path, &raw) }
    let status = FileStatus(raw)
    guard status.permissions & 0o077 == 0 else {
      throw SecretFileError(
        path: path,
        problem: "can be read by other users (mode \(String(status.permissions, radix: 8))); "
          + "make it readable by its owner only: chmod 600 \(path)")
    }
    let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
    return String(decoding: line, as: UTF8.self)
  }
}

/// Why a secret file is not used.
public struct SecretFileError: Error, Hashable, Sendable, CustomStringConvertible {
  public var path: String
  public var problem: String

  public var description: String {
    "\(path) \(problem)"
  }
}
