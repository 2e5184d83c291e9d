@preconcurrency import Glibc

/// A listening socket cannot be created at a path because something is there that must
/// not be replaced.
public struct SocketPathTaken: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is at the path.
  public enum Reason: Hashable, Sendable {
    /// A socket that answers: another program listens on it.
    case live
    /// Something that is not a socket, which is never removed.
    case notASocket(FileStatus.Kind)
    /// A socket of another user, which is never removed, stale or not.
    case otherOwner(uid_t)
  }

  /// The socket's path.
  public var path: String
  /// What is there.
  public var reason: Reason

  /// The error for `path`, taken for `reason`.
  public init(path: String, reason: Reason) {
    self.path = path
    self.reason = reason
  }

  public var description: String {
    switch reason {
    case .live:
      "\(path): another program listens on this socket"
    case .notASocket(let kind):
      "\(path) is \(kind), not a socket; it is never removed: remove it or choose another path"
    case .otherOwner(let owner):
      "\(path) is a socket of \(UnsafePath.user(owner)); it is never removed: "
        + "remove it if it is stale, or choose another path"
    }
  }
}
