@preconcurrency import Glibc
import LinuxIO

/// A new, empty folder for one test (under `TMPDIR`, or `/tmp`), removed with
/// everything in it when the value is released.
final class TemporaryFolder {
  let path: String

  init() throws {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/scoreboardd-test-XXXXXX".utf8CString)
    path = try template.withUnsafeMutableBufferPointer { buffer in
      guard let created = mkdtemp(buffer.baseAddress!) else {
        throw Errno.current
      }
      return String(cString: created)
    }
  }

  deinit {
    Self.remove(path)
  }

  /// The names in the folder, sorted, without `.` and `..`.
  func names() -> [String] {
    Self.names(in: path)
  }

  private static func names(in path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." {
        names.append(name)
      }
    }
    return names.sorted()
  }

  /// Removes a file, or a folder and what it holds; symbolic links are not followed.
  private static func remove(_ path: String) {
    guard unlink(path) == -1, errno == EISDIR else { return }
    for name in names(in: path) {
      remove("\(path)/\(name)")
    }
    rmdir(path)
  }
}
