@preconcurrency import Glibc

extension FileDescriptor {
  /// Reads a whole (small) file: a configuration or a state file.
  ///
  /// - Parameter limit: The largest size accepted; a larger file is refused with
  ///   `EFBIG` rather than read.
  /// - Throws: `IOError` naming the operation and `path`.
  public static func readWholeFile(_ path: String, limit: Int) throws -> [UInt8] {
    let descriptor = try open(path, .readOnly)
    defer { try? descriptor.close() }
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
        return contents
      }
      contents += chunk[0..<count]
      if contents.count > limit {
        throw IOError(operation: "read", path: path, errno: Errno(rawValue: EFBIG))
      }
    }
  }
}
