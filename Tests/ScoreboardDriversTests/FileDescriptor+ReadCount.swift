import LinuxIO

extension FileDescriptor {
  /// Reads until `count` bytes came, waiting up to 5 s for each chunk; fewer when the
  /// wait ends or the input does.
  func read(count: Int) throws -> [UInt8] {
    let loop = PollLoop()
    var bytes: [UInt8] = []
    var ended = false
    var buffer = [UInt8](repeating: 0, count: 4096)
    loop.watch(self, for: .readable) { _ in
      let chunk = (try? buffer.withUnsafeMutableBytes { try read(into: $0) }) ?? 0
      bytes += buffer[..<chunk]
      ended = chunk == 0
    }
    while bytes.count < count, !ended, try loop.runOnce(timeout: .seconds(5)) > 0 {}
    return bytes
  }
}
