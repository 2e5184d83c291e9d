@preconcurrency import Glibc
import Testing

@testable import LinuxIO

@Suite struct AtomicFileTests {
  static let old = Array("version 1\nfield home 12\nfield away 10\n".utf8)
  static let new = Array("version 1\nfield home 14\n".utf8)

  @Test func writeReplacesTheWholeFile() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"

    try AtomicFile.write(Self.old, to: path)
    #expect(try AtomicFile.read(path, limit: 4096) == Self.old)
    try AtomicFile.write(Self.new, to: path)
    #expect(try AtomicFile.read(path, limit: 4096) == Self.new)
    try AtomicFile.write("text\n".utf8, to: path)
    #expect(try AtomicFile.read(path, limit: 4096) == Array("text\n".utf8))

    // No temporary file remains.
    #expect(folder.names() == ["state"])
  }

  @Test func readOfAMissingFileIsNil() throws {
    let folder = try TemporaryFolder()

    #expect(try AtomicFile.read("\(folder.path)/state", limit: 4096) == nil)
    #expect(try AtomicFile.read("\(folder.path)/missing/state", limit: 4096) == nil)
  }

  @Test func readRefusesAFileOverTheLimit() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    try AtomicFile.write(Self.old, to: path)

    let error = #expect(throws: IOError.self) { try AtomicFile.read(path, limit: 10) }
    #expect(error == IOError(operation: "read", path: path, errno: Errno(rawValue: EFBIG)))
  }

  @Test func writeIntoAMissingFolderThrowsAndCreatesNothing() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/missing/state"

    let error = #expect(throws: IOError.self) { try AtomicFile.write(Self.new, to: path) }
    #expect(
      error
        == IOError(
          operation: "open", path: "\(folder.path)/missing/.state.tmp-\(getpid())",
          errno: .noSuchFileOrDirectory))
    #expect(folder.names() == [])
  }

  @Test func aFailedWriteKeepsTheOldFile() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    try AtomicFile.write(Self.old, to: path)
    // A folder where the temporary file would go makes the write fail.
    let temporaryPath = "\(folder.path)/.state.tmp-\(getpid())"
    #expect(mkdir(temporaryPath, 0o755) == 0)

    let error = #expect(throws: IOError.self) { try AtomicFile.write(Self.new, to: path) }
    #expect(error?.errno == Errno(rawValue: EISDIR))
    #expect(try AtomicFile.read(path, limit: 4096) == Self.old)
  }

  @Test func aFailedRenameRemovesTheTemporaryFile() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    // A folder that is not empty cannot be replaced by a file.
    #expect(mkdir(path, 0o755) == 0)
    try AtomicFile.write(Self.old, to: "\(path)/kept")

    let error = #expect(throws: IOError.self) { try AtomicFile.write(Self.new, to: path) }
    #expect(error == IOError(operation: "rename", path: path, errno: Errno(rawValue: EISDIR)))
    #expect(folder.names() == ["state"])
    #expect(try AtomicFile.read("\(path)/kept", limit: 4096) == Self.old)
  }

  @Test(.enabled(if: geteuid() != 0, "permissions do not apply to root"))
  func aReadOnlyFolderKeepsTheOldFile() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    try AtomicFile.write(Self.old, to: path)
    #expect(chmod(folder.path, 0o555) == 0)
    defer { chmod(folder.path, 0o755) }

    let error = #expect(throws: IOError.self) { try AtomicFile.write(Self.new, to: path) }
    #expect(error?.errno == .permissionDenied)
    #expect(try AtomicFile.read(path, limit: 4096) == Self.old)
    #expect(folder.names() == ["state"])
  }

  @Test func setAsideRenamesTheFileWithTheTime() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    try AtomicFile.write(Self.old, to: path)

    let before = Int64(time(nil))
    let newPath = try AtomicFile.setAside(path)
    let after = Int64(time(nil))

    let prefix = "\(path).corrupt-"
    #expect(newPath.hasPrefix(prefix))
    let seconds = try #require(Int64(newPath.dropFirst(prefix.count)))
    #expect((before...after).contains(seconds))
    #expect(try AtomicFile.read(path, limit: 4096) == nil)
    #expect(try AtomicFile.read(newPath, limit: 4096) == Self.old)
  }

  @Test func setAsideNeverReplacesAnEarlierFile() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    var newPaths: [String] = []
    for contents in ["first\n", "second\n", "third\n"] {
      try AtomicFile.write(contents.utf8, to: path)
      newPaths.append(try AtomicFile.setAside(path, secondsSinceEpoch: 1_764_460_800))
    }

    #expect(
      newPaths == [
        "\(path).corrupt-1764460800", "\(path).corrupt-1764460800-2",
        "\(path).corrupt-1764460800-3",
      ])
    #expect(
      try newPaths.map { try AtomicFile.read($0, limit: 4096) }
        == ["first\n", "second\n", "third\n"].map { Array($0.utf8) })
    #expect(
      folder.names() == [
        "state.corrupt-1764460800", "state.corrupt-1764460800-2", "state.corrupt-1764460800-3",
      ])
  }

  @Test func setAsideOfAMissingFileThrows() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"

    let error = #expect(throws: IOError.self) { try AtomicFile.setAside(path) }
    #expect(error == IOError(operation: "rename", path: path, errno: .noSuchFileOrDirectory))
  }
}
