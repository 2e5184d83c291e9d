/// A path that should name a regular file names something else: a FIFO, a folder, a
/// device, a socket or a symbolic link, which reading or replacing could block on, or
/// follow somewhere else.
///
/// The description reads like `/etc/scoreboardd/scoreboardd.conf is a FIFO, not a
/// regular file`.
public struct NotARegularFile: Error, Hashable, Sendable, CustomStringConvertible {
  /// The path.
  public var path: String
  /// What it names.
  public var kind: FileStatus.Kind

  /// The error for `path`, which names a `kind`.
  public init(path: String, kind: FileStatus.Kind) {
    self.path = path
    self.kind = kind
  }

  public var description: String {
    "\(path) is \(kind), not a regular file"
  }
}
