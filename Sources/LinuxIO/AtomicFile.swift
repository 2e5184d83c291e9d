@preconcurrency import Glibc

/// A small file replaced as a whole, such as the daemon's state file: a reader, or the
/// next start after a power cut, finds either the old contents or the new ones, never a
/// mixture or an empty file.
///
/// Every step works inside the folder opened once per call, so a folder renamed or
/// replaced meanwhile cannot redirect a later step; nothing at a path another user could
/// have planted is followed or reused.
public enum AtomicFile {
  /// How many temporary names are tried before giving up, when each is taken.
  private static let temporaryNameAttempts = 8

  /// Replaces the file at `path` with `bytes`, durably, in four steps in this order:
  ///
  /// 1. the bytes go to a new temporary file in the same folder, `.NAME.tmp-RANDOM`,
  ///    created exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`: an existing file or link of that
  ///    name is never opened, so a planted link leads nowhere);
  /// 2. the file is flushed to the disk (`fsync`) and closed;
  /// 3. it is renamed over `path` (`renameat`), atomically;
  /// 4. the folder is flushed (`fsync`), so that the rename itself survives a power cut.
  ///
  /// When a step before the rename fails, the temporary file is removed and `path`
  /// keeps its old contents. The folder must exist.
  ///
  /// - Throws: `IOError` naming the call that failed and its path: the temporary file,
  ///   `path` for `renameat`, or the folder.
  public static func write(_ bytes: some Sequence<UInt8>, to path: String) throws {
    try write(bytes, to: path, temporaryName: randomTemporaryName)
  }

  /// `write(_:to:)` with the temporary names that `temporaryName` makes from the file's
  /// name, for tests.
  static func write(
    _ bytes: some Sequence<UInt8>, to path: String, temporaryName: (String) -> String
  ) throws {
    let (folderPath, name) = split(path)
    let folder = try openFolder(folderPath)
    defer { try? folder.close() }
    let (file, temporary) = try createTemporary(
      in: folder, folderPath: folderPath, name: name, temporaryName: temporaryName)
    let temporaryPath = join(folderPath, temporary)
    do {
      do {
        try file.writeAll(bytes)
        _ = try retryOnInterrupt("fsync") { SystemCall.fsync(file.rawValue) }
      } catch {
        try? file.close()
        throw error
      }
      try file.close()
    } catch let error as IOError {
      _ = SystemCall.unlinkat(folder.rawValue, temporary, 0)
      throw IOError(operation: error.operation, path: temporaryPath, errno: error.errno)
    }
    do {
      _ = try retryOnInterrupt("rename", path: path) {
        SystemCall.renameat(folder.rawValue, temporary, folder.rawValue, name)
      }
    } catch {
      _ = SystemCall.unlinkat(folder.rawValue, temporary, 0)
      throw error
    }
    _ = try retryOnInterrupt("fsync", path: folderPath) { SystemCall.fsync(folder.rawValue) }
  }

  /// The contents of the regular file at `path`, or nil when there is no such file
  /// (`ENOENT`, which includes a missing folder). A symbolic link is not followed.
  ///
  /// - Parameter limit: The largest size accepted; a larger file is refused with
  ///   `EFBIG`.
  /// - Throws: `NotARegularFile` when `path` names a FIFO, a folder, a device, a socket
  ///   or a link; `IOError` naming the call that failed and `path`.
  public static func read(_ path: String, limit: Int) throws -> [UInt8]? {
    do {
      return try FileDescriptor.readRegularFile(path, limit: limit, followingLinks: false)
    } catch let error as IOError where error.errno == .noSuchFileOrDirectory {
      return nil
    }
  }

  /// Removes the temporary files an earlier writer of `path` left behind when it was
  /// stopped between creating one and renaming it (`.NAME.tmp-*`); links of those names
  /// are removed, not followed, and folders are left.
  ///
  /// - Returns: The names removed.
  /// - Throws: `IOError` naming the call and the folder when it cannot be read.
  @discardableResult
  public static func removeTemporaryFiles(of path: String) throws -> [String] {
    let (folderPath, name) = split(path)
    let folder = try openFolder(folderPath)
    defer { try? folder.close() }
    guard let entries = SystemCall.folderEntries(folder.rawValue) else {
      throw IOError(operation: "getdents64", path: folderPath, errno: .current)
    }
    let prefix = temporaryPrefix(of: name)
    return entries.filter { $0.hasPrefix(prefix) }.sorted().filter {
      SystemCall.unlinkat(folder.rawValue, $0, 0) == 0
    }
  }

  /// Renames the entry at `path`, whatever it is, to `PATH.corrupt-SECONDS` (the time
  /// since the epoch), keeping it for a person to look at; `PATH.corrupt-SECONDS-2`, `-3`
  /// and so on when that name is taken, so that an earlier file set aside is never
  /// replaced. A link is renamed itself, not followed.
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
    let (folderPath, name) = split(path)
    let folder = try openFolder(folderPath)
    defer { try? folder.close() }
    let base = "\(name).corrupt-\(secondsSinceEpoch)"
    var copy = 1
    while true {
      let newName = copy == 1 ? base : "\(base)-\(copy)"
      do {
        _ = try retryOnInterrupt("rename", path: path) {
          SystemCall.renameNoReplace(folder.rawValue, name, newName)
        }
        _ = try? retryOnInterrupt("fsync", path: folderPath) {
          SystemCall.fsync(folder.rawValue)
        }
        return join(folderPath, newName)
      } catch let error as IOError where error.errno == .fileExists {
        copy += 1
      }
    }
  }

  // MARK: - Steps

  private static func openFolder(_ path: String) throws -> FileDescriptor {
    try FileDescriptor.open(path, .readOnly, options: [.directory, .closeOnExec])
  }

  /// Creates a new temporary file in `folder`, trying other names while one is taken.
  private static func createTemporary(
    in folder: FileDescriptor, folderPath: String, name: String,
    temporaryName: (String) -> String
  ) throws -> (FileDescriptor, String) {
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
    var attempt = 1
    while true {
      let temporary = temporaryName(name)
      do {
        let descriptor = try retryOnInterrupt("open", path: join(folderPath, temporary)) {
          SystemCall.openat(folder.rawValue, temporary, flags, 0o644)
        }
        return (FileDescriptor(rawValue: descriptor), temporary)
      } catch let error as IOError
        where error.errno == .fileExists && attempt < temporaryNameAttempts
      {
        attempt += 1
      }
    }
  }

  /// `.NAME.tmp-` and 16 random hexadecimal digits.
  private static func randomTemporaryName(for name: String) -> String {
    var bytes = [UInt8](repeating: 0, count: 8)
    let count = bytes.withUnsafeMutableBytes {
      SystemCall.randomBytes($0.baseAddress!, $0.count)
    }
    if count != bytes.count {
      // getrandom does not fail for 8 bytes once the pool is ready; fall back to the clock.
      withUnsafeBytes(of: MonotonicClock.now()) { bytes = Array($0) }
    }
    let digits = Array("0123456789abcdef".utf8)
    let hex = bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }
    return temporaryPrefix(of: name) + String(decoding: hex, as: UTF8.self)
  }

  private static func temporaryPrefix(of name: String) -> String {
    ".\(name).tmp-"
  }

  /// The folder of `path` and the file's name in it: `/var/lib/scoreboardd` and `state`.
  static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else {
      return (".", path)
    }
    let folder = path[..<slash]
    return (folder.isEmpty ? "/" : String(folder), String(path[path.index(after: slash)...]))
  }

  private static func join(_ folder: String, _ name: String) -> String {
    folder == "/" ? "/" + name : folder + "/" + name
  }
}
