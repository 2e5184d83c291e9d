@preconcurrency import Glibc

/// What `fstat` or `lstat` says of a file: its kind, owner, permissions and size.
public struct FileStatus: Hashable, Sendable {
  /// The kind of a file system entry.
  public enum Kind: Hashable, Sendable, CustomStringConvertible {
    /// A regular file. The corresponding C constant is `S_IFREG`.
    case regular
    /// A folder. The corresponding C constant is `S_IFDIR`.
    case directory
    /// A symbolic link (only `lstat` sees one). The corresponding C constant is `S_IFLNK`.
    case symbolicLink
    /// A named pipe. The corresponding C constant is `S_IFIFO`.
    case fifo
    /// A Unix-domain socket. The corresponding C constant is `S_IFSOCK`.
    case socket
    /// A character device, such as a terminal. The corresponding C constant is `S_IFCHR`.
    case characterDevice
    /// A block device, such as a disk. The corresponding C constant is `S_IFBLK`.
    case blockDevice

    init(mode: mode_t) {
      switch mode & S_IFMT {
      case S_IFDIR: self = .directory
      case S_IFLNK: self = .symbolicLink
      case S_IFIFO: self = .fifo
      case S_IFSOCK: self = .socket
      case S_IFCHR: self = .characterDevice
      case S_IFBLK: self = .blockDevice
      default: self = .regular
      }
    }

    /// `a FIFO`, `a folder`, `a symbolic link`: the kind in words, for messages.
    public var description: String {
      switch self {
      case .regular: "a regular file"
      case .directory: "a folder"
      case .symbolicLink: "a symbolic link"
      case .fifo: "a FIFO"
      case .socket: "a socket"
      case .characterDevice: "a character device"
      case .blockDevice: "a block device"
      }
    }
  }

  /// The kind of entry.
  public var kind: Kind
  /// The owner's user ID.
  public var owner: uid_t
  /// The group's ID.
  public var group: gid_t
  /// The permission bits, with set-user-ID, set-group-ID and sticky (`0o7777`).
  public var permissions: mode_t
  /// The size in bytes.
  public var size: Int64
  /// The device and inode numbers, which tell one file from another.
  public var identity: FileIdentity

  init(_ status: stat) {
    kind = Kind(mode: status.st_mode)
    owner = status.st_uid
    group = status.st_gid
    permissions = status.st_mode & 0o7777
    size = Int64(status.st_size)
    identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  /// Whether users other than the owner may write to it: its group or everyone has
  /// write permission.
  public var isWritableByOthers: Bool {
    permissions & 0o022 != 0
  }

  /// Whether the sticky bit is set: in a folder, only an entry's owner may remove or
  /// rename it (`/tmp`).
  public var isSticky: Bool {
    permissions & S_ISVTX != 0
  }

  /// The status of the entry at `path`, not following a final symbolic link (`lstat`).
  ///
  /// - Throws: `IOError` naming `lstat` and `path`.
  public static func ofEntry(at path: String) throws -> FileStatus {
    var status = stat()
    _ = try retryOnInterrupt("lstat", path: path) {
      SystemCall.lstatat(AT_FDCWD, path, &status)
    }
    return FileStatus(status)
  }
}

/// The device and inode numbers of a file: the same numbers are the same file.
public struct FileIdentity: Hashable, Sendable {
  public var device: UInt64
  public var inode: UInt64
}

extension FileDescriptor {
  /// The status of the open file (`fstat`).
  ///
  /// - Throws: `IOError` naming `fstat`.
  public func status() throws -> FileStatus {
    var status = stat()
    _ = try retryOnInterrupt("fstat") { SystemCall.fstat(rawValue, &status) }
    return FileStatus(status)
  }
}
