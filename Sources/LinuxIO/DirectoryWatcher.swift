@preconcurrency import Glibc

/// Watches folders for entries created, changed, moved in or deleted (inotify), such as
/// device nodes and links appearing in `/dev/input` and `/dev/input/by-id`.
///
/// A folder that does not exist yet is watched all the same: the watcher watches its
/// nearest existing ancestor until it appears (udev creates `/dev/input/by-id` with the
/// first keyboard), and again if it is deleted.
///
/// The inotify descriptor is non-blocking and close-on-exec, owned by the watcher and
/// closed by `close()` or when the watcher is released.
public final class DirectoryWatcher {
  /// A change in a watched folder.
  public struct Change: Hashable, Sendable {
    /// What happened to the entry.
    public enum Kind: Hashable, Sendable {
      /// Created. The corresponding C constant is `IN_CREATE`.
      case created
      /// Its permissions, owner or other attributes changed (udev sets a device node's
      /// group after creating it). The corresponding C constant is `IN_ATTRIB`.
      case attributesChanged
      /// Renamed into the folder (udev creates links under a temporary name). The
      /// corresponding C constant is `IN_MOVED_TO`.
      case movedIn
      /// Deleted or renamed out of the folder. The corresponding C constants are
      /// `IN_DELETE` and `IN_MOVED_FROM`.
      case deleted
      /// The kernel's queue overflowed and changes were lost: look at the folders again.
      /// The corresponding C constant is `IN_Q_OVERFLOW`.
      case changesLost
    }

    /// The watched folder, as given to `watch(_:)`; empty for `.changesLost`.
    public var directory: String
    /// The entry's name in the folder; empty for `.changesLost`.
    public var name: String
    /// What happened to the entry.
    public var kind: Kind

    /// A change of the entry `name` in the folder `directory`.
    public init(directory: String, name: String, kind: Kind) {
      self.directory = directory
      self.name = name
      self.kind = kind
    }
  }

  /// The inotify descriptor, owned by the watcher: watch it for `.readable`.
  public let fileDescriptor: FileDescriptor
  /// The folders asked for.
  private var wanted: Set<String> = []
  /// The folders watched now, by watch descriptor: the wanted folders that exist, and the
  /// nearest existing ancestor of each wanted folder that does not.
  private var watched: [CInt: String] = [:]
  private var isClosed = false

  private static let mask = UInt32(
    IN_CREATE | IN_ATTRIB | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR)

  /// A watcher watching nothing yet.
  ///
  /// - Throws: `IOError` naming `inotify_init1`.
  public init() throws {
    let descriptor = try retryOnInterrupt("inotify_init1") {
      SystemCall.inotifyInit(CInt(IN_NONBLOCK | IN_CLOEXEC))
    }
    fileDescriptor = FileDescriptor(rawValue: descriptor)
  }

  deinit {
    close()
  }

  /// Watches `directory`, which need not exist yet.
  ///
  /// - Throws: `IOError` naming `inotify_add_watch` and the folder (`ENOSPC` when the
  ///   user's inotify watches run out).
  public func watch(_ directory: String) throws {
    precondition(!isClosed, "watch(_:) after close()")
    wanted.insert(Self.normalized(directory))
    _ = try refresh()
  }

  /// Reads the changes waiting, without blocking, oldest first; empty when there are
  /// none. A watched folder that appears is reported as `.created` in its parent.
  ///
  /// - Throws: `IOError` naming `read` or `inotify_add_watch`.
  public func readChanges() throws -> [Change] {
    precondition(!isClosed, "readChanges() after close()")
    var changes: [Change] = []
    var foldersChanged = false
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count: Int
      do {
        count = try buffer.withUnsafeMutableBytes { try fileDescriptor.read(into: $0) }
      } catch let error as IOError where error.errno == .wouldBlock {
        break
      }
      guard count > 0 else { break }
      buffer.withUnsafeBytes { bytes in
        var offset = 0
        while offset < count {
          let descriptor = bytes.loadUnaligned(fromByteOffset: offset, as: CInt.self)
          let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
          let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          let nameBytes = bytes[(offset + 16)..<(offset + 16 + nameLength)].prefix { $0 != 0 }
          offset += 16 + nameLength
          if mask & UInt32(IN_IGNORED) != 0 {
            // The folder was deleted (or its file system unmounted).
            watched[descriptor] = nil
            foldersChanged = true
          }
          if mask & UInt32(IN_ISDIR) != 0 {
            foldersChanged = true
          }
          if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            changes.append(Change(directory: "", name: "", kind: .changesLost))
            foldersChanged = true
          }
          guard let directory = watched[descriptor], wanted.contains(directory),
            let kind = Self.kind(of: mask)
          else { continue }
          changes.append(
            Change(
              directory: directory, name: String(decoding: nameBytes, as: UTF8.self), kind: kind))
        }
      }
    }
    if foldersChanged {
      for appeared in try refresh() {
        let change = Change(
          directory: Self.parent(of: appeared), name: Self.lastComponent(of: appeared),
          kind: .created)
        if !changes.contains(change) {
          changes.append(change)
        }
      }
    }
    return changes
  }

  /// Closes the inotify descriptor, which ends every watch; calling it again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    // Closing an inotify descriptor cannot fail in a way that matters to the caller.
    try? fileDescriptor.close()
  }

  /// Watches each wanted folder, or its nearest existing ancestor, and drops the watches
  /// no longer needed. Returns the wanted folders that were not watched before.
  private func refresh() throws -> [String] {
    var needed: [CInt: String] = [:]
    for directory in wanted.sorted() {
      var path = directory
      while true {
        if let descriptor = try addWatch(path) {
          needed[descriptor] = path
          break
        }
        let parent = Self.parent(of: path)
        guard parent != path else {
          throw IOError(
            operation: "inotify_add_watch", path: directory, errno: .noSuchFileOrDirectory)
        }
        path = parent
      }
    }
    for descriptor in watched.keys where needed[descriptor] == nil {
      // The watch may be gone already with its folder.
      _ = SystemCall.inotifyRemoveWatch(fileDescriptor.rawValue, descriptor)
    }
    let appeared = wanted.filter { needed.values.contains($0) && !watched.values.contains($0) }
    watched = needed
    return appeared.sorted()
  }

  /// Adds (or keeps) the watch of `path`; nil when `path` is not an existing folder.
  private func addWatch(_ path: String) throws -> CInt? {
    do {
      return try retryOnInterrupt("inotify_add_watch", path: path) {
        SystemCall.inotifyAddWatch(fileDescriptor.rawValue, path, Self.mask)
      }
    } catch let error as IOError
      where [.noSuchFileOrDirectory, .notDirectory].contains(error.errno)
    {
      return nil
    }
  }

  private static func kind(of mask: UInt32) -> Change.Kind? {
    if mask & UInt32(IN_CREATE) != 0 { return .created }
    if mask & UInt32(IN_ATTRIB) != 0 { return .attributesChanged }
    if mask & UInt32(IN_MOVED_TO) != 0 { return .movedIn }
    if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { return .deleted }
    return nil
  }

  /// `path` without trailing slashes (`/` stays `/`).
  private static func normalized(_ path: String) -> String {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") {
      path = path.dropLast()
    }
    return String(path)
  }

  /// The folder holding `path`: `/dev/input` for `/dev/input/by-id`, `/` for `/dev`
  /// and `/`, `.` for a bare name.
  private static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func lastComponent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
