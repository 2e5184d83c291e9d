@preconcurrency import Glibc
import LinuxIO

/// A private folder under /tmp for one test (mode 0700, as `mkdtemp` makes it), removed
/// with everything in it when released, whatever the test did.
public final class TemporaryFolder {
  /// The folder's absolute path.
  public let path: String

  /// A new, empty folder.
  ///
  /// - Throws: `TestSupportError` when the folder cannot be created.
  public init() throws {
    var template = Array("/tmp/scoreboardd-test-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else {
      throw TestSupportError("mkdtemp failed: errno \(errno)")
    }
    path = String(cString: created)
  }

  deinit {
    Self.remove(path)
  }

  /// The path of `name` (a relative path) in the folder.
  public func path(of name: String) -> String {
    "\(path)/\(name)"
  }

  /// Writes `contents` to the file `name`, replacing it, and returns its path.
  @discardableResult
  public func write(_ name: String, _ contents: String) throws -> String {
    let file = path(of: name)
    guard let stream = fopen(file, "we") else {
      throw TestSupportError("cannot write \(file): errno \(errno)")
    }
    fputs(contents, stream)
    fclose(stream)
    return file
  }

  /// The contents of the file `name`, or nil when it cannot be read.
  public func read(_ name: String) -> String? {
    readTextFile(path(of: name))
  }

  /// The newest whole version in the file `name` of two slots (`TwoSlotFile`), such as
  /// a state file, or the file's contents when it is not made of slots; nil when it
  /// cannot be read or neither slot is whole.
  public func readNewest(_ name: String) -> String? {
    guard let bytes = try? TwoSlotFile(path: path(of: name)).read(limit: 1 << 20) else {
      return nil
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Creates a FIFO named `name` and returns its path.
  @discardableResult
  public func makeFIFO(_ name: String) throws -> String {
    let fifo = path(of: name)
    guard mkfifo(fifo, 0o600) == 0 else {
      throw TestSupportError("mkfifo \(fifo) failed: errno \(errno)")
    }
    return fifo
  }

  /// Creates a folder named `name` (a relative path) and returns its path.
  @discardableResult
  public func makeFolder(_ name: String, mode: mode_t = 0o700) throws -> String {
    let folder = path(of: name)
    guard mkdir(folder, mode) == 0, chmod(folder, mode) == 0 else {
      throw TestSupportError("mkdir \(folder) failed: errno \(errno)")
    }
    return folder
  }

  /// The names in the folder, or in its subfolder `name`, sorted, without `.` and `..`.
  public func names(in name: String? = nil) -> [String] {
    fileNames(in: name.map(path(of:)) ?? path)
  }

  /// Removes the entry `name` and everything in it.
  public func remove(_ name: String) {
    Self.remove(path(of: name))
  }

  private static func remove(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFDIR {
      // A test may have made a folder read-only, or mounted something on it.
      chmod(path, 0o700)
      umount2(path, CInt(MNT_DETACH))
      for name in fileNames(in: path) {
        remove("\(path)/\(name)")
      }
      rmdir(path)
    } else {
      unlink(path)
    }
  }
}

/// A test's set-up failed: what could not be done.
public struct TestSupportError: Error, CustomStringConvertible {
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}
