@preconcurrency import Glibc

/// A small tmpfs mounted on a folder for one test: a disk that fills up, runs out of
/// inodes or turns read-only on demand, as a failing SD card does. Unmounted when
/// released. Mounting needs root (`CAP_SYS_ADMIN`); `isAvailable` says whether it works
/// here.
public final class TemporaryMount {
  /// The folder the file system is mounted on.
  public let path: String
  private var isMounted = true

  /// Whether this process can mount a tmpfs (tests that need one are skipped if not).
  public static let isAvailable: Bool = {
    guard geteuid() == 0, let folder = try? TemporaryFolder() else { return false }
    guard mount("tmpfs", folder.path, "tmpfs", 0, "size=4k") == 0 else { return false }
    umount2(folder.path, 0)
    return true
  }()

  /// Mounts a tmpfs of `kilobytes` and at most `inodes` inodes on `path`, mode 0700.
  public init(at path: String, kilobytes: Int, inodes: Int? = nil) throws {
    self.path = path
    var options = "size=\(kilobytes)k,mode=0700"
    if let inodes {
      options += ",nr_inodes=\(inodes)"
    }
    guard mount("tmpfs", path, "tmpfs", 0, options) == 0 else {
      throw TestSupportError("mount tmpfs on \(path) failed: errno \(errno)")
    }
  }

  deinit {
    unmount()
  }

  /// Makes the file system read-only (`mount -o remount,ro`), or writable again.
  ///
  /// The kernel refuses to make it read-only (EBUSY) while a file on it is open for
  /// writing: a daemon saving its state at that moment (it answers on its socket before
  /// its first save is done). That lasts milliseconds, so the remount is tried again for
  /// up to 2 s.
  public func setReadOnly(_ readOnly: Bool) throws {
    let flags = UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0)
    var error: CInt = 0
    _ = waitUntil(timeout: 2) {
      error = mount("tmpfs", path, "tmpfs", flags, nil) == 0 ? 0 : errno
      return error != EBUSY
    }
    guard error == 0 else {
      throw TestSupportError("remount \(path) failed: errno \(error)")
    }
  }

  /// Fills the file system to the last byte with a file named `name`, which
  /// `remove(name)` frees again. The file is opened close-on-exec: a daemon another test
  /// starts meanwhile must not inherit it, or its space would stay taken after `remove`.
  public func fill(with name: String) {
    guard let stream = fopen("\(path)/\(name)", "we") else { return }
    let chunk = [UInt8](repeating: 0x55, count: 1024)
    while fwrite(chunk, 1, chunk.count, stream) == chunk.count {}
    while fwrite(chunk, 1, 1, stream) == 1 {}
    fclose(stream)
  }

  /// Uses up every inode with empty files `name-N`.
  public func exhaustInodes(prefix name: String) {
    var index = 0
    while true {
      let descriptor = open("\(path)/\(name)-\(index)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return }
      close(descriptor)
      index += 1
    }
  }

  /// Removes the file `name` (to free space or an inode).
  public func remove(_ name: String) {
    unlink("\(path)/\(name)")
  }

  /// The free blocks and inodes, as `df` would report them, for a test's messages.
  public var freeSpace: String {
    var status = statvfs()
    guard statvfs(path, &status) == 0 else { return "statvfs failed: errno \(errno)" }
    return "\(status.f_bavail) of \(status.f_blocks) blocks of \(status.f_bsize) bytes free, "
      + "\(status.f_favail) of \(status.f_files) inodes"
  }

  /// Unmounts the file system; calling it again does nothing.
  public func unmount() {
    guard isMounted else { return }
    isMounted = false
    umount2(path, CInt(MNT_DETACH))
  }
}
