@preconcurrency import Glibc

extension FileDescriptor {
  /// Reads a whole (small) regular file: a configuration or a state file.
  ///
  /// Nothing but a regular file is opened for reading: a FIFO would block until a writer
  /// comes, a device might act on being opened, and a folder has no contents. The path is
  /// looked at first, then opened without blocking (`O_NONBLOCK`) and looked at again
  /// (`fstat`), so that something swapped in between is refused as well.
  ///
  /// - Parameters:
  ///   - limit: The largest size accepted; a larger file is refused with `EFBIG` rather
  ///     than read.
  ///   - followingLinks: Whether a symbolic link at `path` is followed; when false, a link
  ///     is refused as `NotARegularFile`.
  /// - Throws: `NotARegularFile` when `path` names anything else; `IOError` naming the
  ///   operation and `path`.
  public static func readRegularFile(_ path: String, limit: Int, followingLinks: Bool = true)
    throws -> [UInt8]
  {
    try readRegularFileAndStatus(path, limit: limit, followingLinks: followingLinks).contents
  }

  /// `readRegularFile(_:limit:followingLinks:)`, with the status of the file that was
  /// read (its identity, size and owner).
  static func readRegularFileAndStatus(_ path: String, limit: Int, followingLinks: Bool)
    throws -> (contents: [UInt8], status: FileStatus)
  {
    var status = stat()
    _ = try retryOnInterrupt(followingLinks ? "stat" : "lstat", path: path) {
      followingLinks
        ? SystemCall.statat(AT_FDCWD, path, &status)
        : SystemCall.lstatat(AT_FDCWD, path, &status)
    }
    var kind = FileStatus.Kind(mode: status.st_mode)
    guard kind == .regular else { throw NotARegularFile(path: path, kind: kind) }
    var options: OpenOptions = [.closeOnExec, .nonBlocking, .noControllingTerminal]
    if !followingLinks {
      options.insert(.noFollow)
    }
    let descriptor = try open(path, .readOnly, options: options)
    defer { try? descriptor.close() }
    let opened: FileStatus
    do {
      opened = try descriptor.status()
    } catch var error as IOError {
      error.path = path
      throw error
    }
    kind = opened.kind
    guard kind == .regular else { throw NotARegularFile(path: path, kind: kind) }
    guard opened.size <= limit else {
      throw IOError(operation: "read", path: path, errno: Errno(rawValue: EFBIG))
    }
    var contents: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count: Int
      do {
        count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
      } catch let error as IOError {
        throw IOError(operation: error.operation, path: path, errno: error.errno)
      }
      if count == 0 {
        return (contents, opened)
      }
      contents += chunk[0..<count]
      if contents.count > limit {
        throw IOError(operation: "read", path: path, errno: Errno(rawValue: EFBIG))
      }
    }
  }
}
