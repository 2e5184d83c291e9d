import CScoreboardLinux
@preconcurrency import Glibc

/// An error number that a system call reported through `errno`.
///
/// The description is the C library's message followed by the symbolic name, such as
/// `No such file or directory (ENOENT)`.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
  /// The C `errno` value.
  public var rawValue: CInt

  /// Wraps an `errno` value.
  public init(rawValue: CInt) {
    self.rawValue = rawValue
  }

  /// The value `errno` holds now, right after a failed call.
  public static var current: Errno {
    Errno(rawValue: errno)
  }

  /// The call was interrupted by a signal. The corresponding C constant is `EINTR`.
  public static let interrupted = Errno(rawValue: EINTR)
  /// A non-blocking call would have to wait. The corresponding C constant is `EAGAIN`.
  public static let wouldBlock = Errno(rawValue: EAGAIN)
  /// The descriptor is not open. The corresponding C constant is `EBADF`.
  public static let badFileDescriptor = Errno(rawValue: EBADF)
  /// The path names nothing. The corresponding C constant is `ENOENT`.
  public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  /// Permission was denied. The corresponding C constant is `EACCES`.
  public static let permissionDenied = Errno(rawValue: EACCES)
  /// A device reported an error or went away. The corresponding C constant is `EIO`.
  public static let ioError = Errno(rawValue: EIO)
  /// The reader of a pipe or socket is gone. The corresponding C constant is `EPIPE`.
  public static let brokenPipe = Errno(rawValue: EPIPE)
  /// The descriptor is not a terminal. The corresponding C constant is `ENOTTY`.
  public static let notTerminal = Errno(rawValue: ENOTTY)
  /// The device or line is in use. The corresponding C constant is `EBUSY`.
  public static let busy = Errno(rawValue: EBUSY)
  /// An argument is out of range, such as a line offset a chip lacks. The corresponding C
  /// constant is `EINVAL`.
  public static let invalidArgument = Errno(rawValue: EINVAL)
  /// The device is gone, such as an input device unplugged. The corresponding C constant
  /// is `ENODEV`.
  public static let noSuchDevice = Errno(rawValue: ENODEV)
  /// The operation is not permitted. The corresponding C constant is `EPERM`.
  public static let notPermitted = Errno(rawValue: EPERM)
  /// The file system is mounted read-only. The corresponding C constant is `EROFS`.
  public static let readOnlyFileSystem = Errno(rawValue: EROFS)
  /// The path names something that is not a folder where a folder is needed. The
  /// corresponding C constant is `ENOTDIR`.
  public static let notDirectory = Errno(rawValue: ENOTDIR)
  /// A file is larger than allowed. The corresponding C constant is `EFBIG`.
  public static let fileTooLarge = Errno(rawValue: EFBIG)
  /// No space is left on the device. The corresponding C constant is `ENOSPC`.
  public static let noSpace = Errno(rawValue: ENOSPC)
  /// The operation is not supported, such as kernel debounce with libgpiod v1. The
  /// corresponding C constant is `ENOTSUP` (`EOPNOTSUPP` on Linux).
  public static let notSupported = Errno(rawValue: ENOTSUP)
  /// No such device or address: on an I²C bus, a chip that does not answer.
  public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
  /// Remote I/O error: on an I²C bus, a chip that does not acknowledge.
  public static let remoteIO = Errno(rawValue: EREMOTEIO)

  /// The symbolic names of the errors a daemon commonly meets.
  private static let names: [CInt: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO",
    ENXIO: "ENXIO", E2BIG: "E2BIG", EBADF: "EBADF", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM",
    EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY", EEXIST: "EEXIST", ENODEV: "ENODEV",
    ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", ENFILE: "ENFILE",
    EMFILE: "EMFILE", ENOTTY: "ENOTTY", EFBIG: "EFBIG", ENOSPC: "ENOSPC", ESPIPE: "ESPIPE",
    EROFS: "EROFS", EPIPE: "EPIPE", ERANGE: "ERANGE", ENAMETOOLONG: "ENAMETOOLONG",
    ENOSYS: "ENOSYS", ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", ENODATA: "ENODATA",
    ETIME: "ETIME", ENOTSOCK: "ENOTSOCK", EMSGSIZE: "EMSGSIZE", EOPNOTSUPP: "EOPNOTSUPP",
    EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL", ENETUNREACH: "ENETUNREACH",
    ECONNABORTED: "ECONNABORTED", ECONNRESET: "ECONNRESET", ENOBUFS: "ENOBUFS",
    EISCONN: "EISCONN", ENOTCONN: "ENOTCONN", ETIMEDOUT: "ETIMEDOUT",
    ECONNREFUSED: "ECONNREFUSED", EHOSTUNREACH: "EHOSTUNREACH", EALREADY: "EALREADY",
    EINPROGRESS: "EINPROGRESS", ECANCELED: "ECANCELED", EREMOTEIO: "EREMOTEIO",
  ]

  /// The symbolic name (`ENOENT`), or nil for an error outside the common set.
  public var name: String? {
    Self.names[rawValue]
  }

  /// The C library's message for this error (`No such file or directory`).
  public var message: String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
      String(cString: sbl_error_message(rawValue, buffer.baseAddress, buffer.count))
    }
  }

  /// `No such file or directory (ENOENT)`, or `Unknown error 999 (errno 999)`.
  public var description: String {
    "\(message) (\(name ?? "errno \(rawValue)"))"
  }
}
