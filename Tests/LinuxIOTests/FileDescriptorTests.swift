@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

@Suite struct FileDescriptorTests {
  @Test func pipeCarriesBytes() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    try writeEnd.writeAll("score 12")
    try writeEnd.close()
    let received = try readEnd.readToEnd()
    #expect(received == Array("score 12".utf8))
  }

  @Test func pipeEndsAreCloseOnExec() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    #expect(fcntl(readEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    #expect(fcntl(writeEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
  }

  @Test func writeAllDeliversEverythingWhileAReaderDrainsThePipe() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let reader = BackgroundReader(readEnd)
    reader.start()
    try writeEnd.writeAll(bytes)
    try writeEnd.close()
    #expect(reader.join() == bytes)
  }

  @Test func writeAllThrowsWouldBlockWhenANonBlockingPipeFills() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    try writeEnd.setNonBlocking()
    // More than a pipe holds: the first write is partial, the next one finds it full.
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    let error = try thrownError(IOError.self) { try writeEnd.writeAll(bytes) }
    #expect(error.errno == .wouldBlock)
    try writeEnd.close()

    let received = try readEnd.readToEnd()
    #expect(!received.isEmpty)
    #expect(received.count < bytes.count)
    #expect(received == Array(bytes[..<received.count]))
  }

  @Test func readOfAnEmptyNonBlockingPipeThrowsWouldBlock() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    try readEnd.setNonBlocking()
    var buffer = [UInt8](repeating: 0, count: 16)
    let error = try thrownError(IOError.self) {
      try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
    }
    #expect(error.errno == .wouldBlock)
  }

  @Test func setNonBlockingSwitchesTheFlag() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    try readEnd.setNonBlocking()
    #expect(fcntl(readEnd.rawValue, F_GETFL) & O_NONBLOCK != 0)
    try readEnd.setNonBlocking(false)
    #expect(fcntl(readEnd.rawValue, F_GETFL) & O_NONBLOCK == 0)
  }

  @Test func openWithOptions() throws {
    let folder = try TemporaryFolder()
    let path = folder.path(of: "open")
    let file = try FileDescriptor.open(
      path, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec], permissions: 0o600)
    try file.writeAll("state")
    try file.close()

    let error = try thrownError(IOError.self) {
      try FileDescriptor.open(path, .readWrite, options: [.create, .exclusiveCreate])
    }
    #expect(error.errno == Errno(rawValue: EEXIST))
    #expect(error.path == path)

    let reopened = try FileDescriptor.open(path, .readOnly)
    defer { try? reopened.close() }
    let contents = try reopened.readToEnd()
    #expect(contents == Array("state".utf8))
  }

  @Test func isTerminalTellsPipesFromTerminals() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    #expect(!readEnd.isTerminal)

    let pseudoTerminal = try PseudoTerminal.open()
    defer { try? pseudoTerminal.master.close() }
    #expect(pseudoTerminal.master.isTerminal)
  }
}
