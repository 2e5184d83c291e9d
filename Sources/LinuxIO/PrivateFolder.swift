@preconcurrency import Glibc

/// Checks that a folder where a program writes files (a state file, a socket) is its
/// own: no other user can create, replace or redirect entries there.
///
/// A folder passes when every folder on its path belongs to root or to this process's
/// user; none of them but a sticky one (such as `/tmp`, where only an entry's owner may
/// rename it) is writable by its group or by everyone, and the folder itself is not
/// writable by anyone else at all; and every symbolic link on the way belongs to root or
/// to this user. A folder that does not exist yet passes: creating it is up to whoever
/// can write to its parent, which passed.
public enum PrivateFolder {
  /// The most links followed on one path, as the kernel allows (`ELOOP` beyond).
  private static let linkLimit = 40

  /// Checks `path` (absolute, or relative to the current folder).
  ///
  /// - Throws: `UnsafePath` naming the first path that fails and why; `IOError` when a
  ///   folder on the way cannot be examined (`EACCES`).
  public static func check(_ path: String) throws {
    var links = 0
    try check(absolute(path), links: &links, endsAtTheFolder: true)
  }

  /// Checks each entry of `path`; its last one is the folder itself when
  /// `endsAtTheFolder`, else a folder on the way to it (a link's target).
  private static func check(_ path: String, links: inout Int, endsAtTheFolder: Bool) throws {
    let me = SystemCall.effectiveUserID()
    func isTrusted(_ owner: uid_t) -> Bool { owner == 0 || owner == me }

    var current = "/"
    let root = try FileStatus.ofEntry(at: current)
    guard isTrusted(root.owner) else {
      throw UnsafePath(path: current, problem: .owner(root.owner))
    }
    let components = path.split(separator: "/").map(String.init)
    for (index, component) in components.enumerated() {
      let isLast = endsAtTheFolder && index == components.count - 1
      if component == "." { continue }
      if component == ".." {
        current = parent(of: current)
        continue
      }
      let next = current == "/" ? "/" + component : current + "/" + component
      let status: FileStatus
      do {
        status = try FileStatus.ofEntry(at: next)
      } catch let error as IOError where error.errno == .noSuchFileOrDirectory {
        return
      }
      switch status.kind {
      case .symbolicLink:
        guard isTrusted(status.owner) else {
          throw UnsafePath(path: next, problem: .linkOwner(status.owner))
        }
        links += 1
        guard links <= linkLimit else {
          throw IOError(operation: "readlink", path: next, errno: Errno(rawValue: ELOOP))
        }
        let target = try readLink(next)
        let resolved =
          target.hasPrefix("/") ? target : (current == "/" ? "/" : current + "/") + target
        try check(resolved, links: &links, endsAtTheFolder: isLast)
        guard let real = SystemCall.realpath(next) else { return }
        current = real
        if isLast {
          return
        }
      case .directory:
        guard isTrusted(status.owner) else {
          throw UnsafePath(path: next, problem: .owner(status.owner))
        }
        if status.isWritableByOthers && (isLast || !status.isSticky) {
          throw UnsafePath(path: next, problem: .writableByOthers(status.permissions))
        }
        current = next
      default:
        throw UnsafePath(path: next, problem: .notAFolder(status.kind))
      }
    }
  }

  private static func readLink(_ path: String) throws -> String {
    try withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer in
      let count = try retryOnInterrupt("readlink", path: path) {
        SystemCall.readlink(path, buffer.baseAddress!, buffer.count)
      }
      return String(
        decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
    }
  }

  private static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    let current = SystemCall.realpath(".") ?? "/"
    return current == "/" ? "/" + path : current + "/" + path
  }

  private static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }
}

/// A path another user could use to make a program write where it should not: a folder
/// they own or may write to, or a link they own.
///
/// The description names the path and the owner, such as `/tmp/scores is a symbolic link
/// owned by user 'nobody' (uid 65534), not by root or this user`.
public struct UnsafePath: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong with the path.
  public enum Problem: Hashable, Sendable {
    /// A folder that belongs to another user.
    case owner(uid_t)
    /// A symbolic link that belongs to another user.
    case linkOwner(uid_t)
    /// A folder whose group or everyone may write to it (its permission bits).
    case writableByOthers(mode_t)
    /// Something other than a folder or a link where a folder is needed.
    case notAFolder(FileStatus.Kind)
  }

  /// The path that fails the check.
  public var path: String
  /// Why.
  public var problem: Problem

  /// The error of `problem` on `path`.
  public init(path: String, problem: Problem) {
    self.path = path
    self.problem = problem
  }

  public var description: String {
    switch problem {
    case .owner(let owner):
      return "\(path) belongs to \(Self.user(owner)), not to root or this user"
    case .linkOwner(let owner):
      return "\(path) is a symbolic link owned by \(Self.user(owner)), not by root or this user"
    case .writableByOthers(let permissions):
      let mode = "0" + String(permissions, radix: 8)
      return "\(path) may be written to by other users (mode \(mode)); "
        + "use a folder only its owner can write to"
    case .notAFolder(let kind):
      return "\(path) is \(kind), not a folder"
    }
  }

  /// `user 'nobody' (uid 65534)`, or `uid 1234` for a user the system does not know.
  static func user(_ id: uid_t) -> String {
    SystemCall.userName(id).map { "user '\($0)' (uid \(id))" } ?? "uid \(id)"
  }
}
