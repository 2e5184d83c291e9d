/// A failed system call, with what was being done and, where one is involved, the path.
///
/// The description reads like `open /dev/ttyUSB0: No such file or directory (ENOENT)`,
/// followed by `; ` and the hint when there is one.
public struct IOError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The call or operation that failed (`open`, `read`, `tcsetattr`).
  public var operation: String
  /// The file or device concerned, when known.
  public var path: String?
  /// Why it failed.
  public var errno: Errno
  /// What the user can do about it (`add the user running scoreboardd to the 'input'
  /// group`), when the caller knows.
  public var hint: String?

  /// An error of `operation` on `path` (if any), failing with `errno`, with an optional
  /// hint for the user.
  public init(operation: String, path: String? = nil, errno: Errno, hint: String? = nil) {
    self.operation = operation
    self.path = path
    self.errno = errno
    self.hint = hint
  }

  /// `operation path: message (NAME)`, or `operation: message (NAME)` without a path,
  /// then `; hint` when there is a hint.
  public var description: String {
    let subject = path.map { " \($0)" } ?? ""
    let hint = hint.map { "; \($0)" } ?? ""
    return "\(operation)\(subject): \(errno)\(hint)"
  }
}
