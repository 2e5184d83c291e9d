/// A failed system call, with what was being done and, where one is involved, the path.
///
/// The description reads like `open /dev/ttyUSB0: No such file or directory (ENOENT)`.
public struct IOError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The call or operation that failed (`open`, `read`, `tcsetattr`).
  public var operation: String
  /// The file or device concerned, when known.
  public var path: String?
  /// Why it failed.
  public var errno: Errno

  /// An error of `operation` on `path` (if any), failing with `errno`.
  public init(operation: String, path: String? = nil, errno: Errno) {
    self.operation = operation
    self.path = path
    self.errno = errno
  }

  /// `operation path: message (NAME)`, or `operation: message (NAME)` without a path.
  public var description: String {
    if let path {
      return "\(operation) \(path): \(errno)"
    }
    return "\(operation): \(errno)"
  }
}
