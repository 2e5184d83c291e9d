@preconcurrency import Glibc

extension FileDescriptor {
  /// Whether a descriptor is opened for reading, writing or both.
  public struct AccessMode: RawRepresentable, Hashable, Sendable {
    /// The C `O_RDONLY`, `O_WRONLY` or `O_RDWR` value.
    public let rawValue: CInt

    /// Wraps an access mode value.
    public init(rawValue: CInt) {
      self.rawValue = rawValue
    }

    /// Reading only. The corresponding C constant is `O_RDONLY`.
    public static let readOnly = AccessMode(rawValue: O_RDONLY)
    /// Writing only. The corresponding C constant is `O_WRONLY`.
    public static let writeOnly = AccessMode(rawValue: O_WRONLY)
    /// Reading and writing. The corresponding C constant is `O_RDWR`.
    public static let readWrite = AccessMode(rawValue: O_RDWR)
  }

  /// Flags for `open`.
  public struct OpenOptions: OptionSet, Hashable, Sendable {
    /// The C `O_*` flags.
    public let rawValue: CInt

    /// Wraps `O_*` flags.
    public init(rawValue: CInt) {
      self.rawValue = rawValue
    }

    /// Create the file if it does not exist. The corresponding C constant is `O_CREAT`.
    public static let create = OpenOptions(rawValue: O_CREAT)
    /// With `.create`, fail if the file exists. The corresponding C constant is `O_EXCL`.
    public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
    /// Every write goes to the end. The corresponding C constant is `O_APPEND`.
    public static let append = OpenOptions(rawValue: O_APPEND)
    /// Close the descriptor in programs this one executes. The corresponding C constant
    /// is `O_CLOEXEC`.
    public static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
    /// Reads and writes fail with `EAGAIN` instead of waiting. The corresponding C
    /// constant is `O_NONBLOCK`.
    public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
    /// Fail with `ELOOP` when the last component of the path is a symbolic link. The
    /// corresponding C constant is `O_NOFOLLOW`.
    public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    /// Open a folder, failing with `ENOTDIR` for anything else. The corresponding C
    /// constant is `O_DIRECTORY`.
    public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    /// A terminal opened does not become the controlling terminal. The corresponding C
    /// constant is `O_NOCTTY`.
    public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
  }
}
