import LinuxIO

extension FileDescriptor {
  /// Reads until the end of the file (a pipe's writer closed it).
  func readToEnd() throws -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1000)
    while true {
      let count = try buffer.withUnsafeMutableBytes { try read(into: $0) }
      if count == 0 {
        return bytes
      }
      bytes += buffer[..<count]
    }
  }
}
