import CScoreboardLinux
@preconcurrency import Glibc

/// A small file replaced as a whole, such as the daemon's state file: a reader, or the
/// next start after a power cut, finds either the old contents or the new ones, never a
/// mixture or an empty file.
public enum AtomicFile {
  /// Replaces the file at `path` with `bytes`.
  ///
  /// The bytes go to a temporary file in the same folder (`.NAME.tmp-PID`), which is
  /// flushed to the disk (`fsync`) and renamed over `path`; then the folder is flushed
  /// so that the rename itself survives a power cut. The folder must exist. On failure
  /// before the rename, the temporary file is removed and `path` keeps its old contents.
  ///
  /// - Throws: `IOError` naming the call that failed and the path it was given: the
  ///   temporary file, `path` for `rename`, or the folder.
  public static func write(_ bytes: some Sequence<UInt8>, to path: String) throws {
    let (folder, name) = split(path)
    let temporaryPath = "\(folder)/.\(name).tmp-\(getpid())"
    let file = try FileDescriptor.open(
      temporaryPath, .writeOnly, options: [.create, .truncate, .closeOnExec])
    do {
      do {
        try file.writeAll(bytes)
        _ = try retryOnInterrupt("fsync") { fsync(file.rawValue) }
      } catch {
        try? file.close()
        throw error
      }
      try file.close()
      _ = try retryOnInterrupt("rename", path: path) { rename(temporaryPath, path) }
    } catch {
      unlink(temporaryPath)
      guard let error = error as? IOError, error.path == nil else { throw error }
      throw IOError(operation: error.operation, path: temporaryPath, errno: error.errno)
    }
    let folderDescriptor = try FileDescriptor.open(folder, .readOnly)
    defer { try? folderDescriptor.close() }
    _ = try retryOnInterrupt("fsync", path: folder) { fsync(folderDescriptor.rawValue) }
  }

  /// The contents of the file at `path`, or nil when there is no such file (`ENOENT`,
  /// which includes a missing folder).
  ///
  /// - Parameter limit: The largest size accepted; a larger file is refused with
  ///   `EFBIG`.
  /// - Throws: `IOError` naming the call that failed and `path`.
  public static func read(_ path: String, limit: Int) throws -> [UInt8]? {
    do {
      return try FileDescriptor.readWholeFile(path, limit: limit)
    } catch let error as IOError where error.errno == .noSuchFileOrDirectory {
      return nil
    }
  }

  /// Renames the file at `path` to `PATH.corrupt-SECONDS` (the time since the epoch),
  /// keeping it for a person to look at; `PATH.corrupt-SECONDS-2`, `-3` and so on when
  /// that name is taken, so that an earlier file set aside is never replaced.
  ///
  /// The file system must support `renameat2` with `RENAME_NOREPLACE` (ext4, btrfs, xfs
  /// and tmpfs do), which renames without replacing in one step.
  ///
  /// - Returns: The new path.
  /// - Throws: `IOError` naming `rename` and `path`.
  public static func setAside(_ path: String) throws -> String {
    try setAside(path, secondsSinceEpoch: Int64(time(nil)))
  }

  /// `setAside(_:)` at a given time.
  static func setAside(_ path: String, secondsSinceEpoch: Int64) throws -> String {
    let base = "\(path).corrupt-\(secondsSinceEpoch)"
    var copy = 1
    while true {
      let newPath = copy == 1 ? base : "\(base)-\(copy)"
      do {
        _ = try retryOnInterrupt("rename", path: path) { sbl_rename_no_replace(path, newPath) }
        return newPath
      } catch let error as IOError where error.errno == Errno(rawValue: EEXIST) {
        copy += 1
      }
    }
  }

  /// The folder of `path` and the file's name in it: `/var/lib/scoreboardd` and `state`.
  private static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else {
      return (".", path)
    }
    let folder = path[..<slash]
    return (folder.isEmpty ? "/" : String(folder), String(path[path.index(after: slash)...]))
  }
}
