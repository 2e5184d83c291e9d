@preconcurrency import Glibc
import LinuxIO
import Testing

/// A folder under /tmp for one test, removed with everything in it when released.
final class TemporaryFolder {
  let path: String

  init() throws {
    var template = Array("/tmp/scoreboardd-linuxio-XXXXXX".utf8CString)
    path = String(cString: try #require(mkdtemp(&template)))
  }

  deinit {
    Self.remove(path)
  }

  /// Creates a FIFO named `name` and returns its path.
  @discardableResult
  func makeFIFO(_ name: String) throws -> String {
    let fifo = "\(path)/\(name)"
    try #require(mkfifo(fifo, 0o600) == 0)
    return fifo
  }

  /// Creates a folder named `name` (a relative path) and returns its path.
  @discardableResult
  func makeFolder(_ name: String) throws -> String {
    let folder = "\(path)/\(name)"
    try #require(mkdir(folder, 0o700) == 0)
    return folder
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

  /// Removes the entry `name` and everything in it.
  func remove(_ name: String) {
    Self.remove("\(path)/\(name)")
  }

  private static func remove(_ path: String) {
    guard unlink(path) == -1, errno == EISDIR else { return }
    for name in names(in: path) {
      remove("\(path)/\(name)")
    }
    rmdir(path)
  }
}
