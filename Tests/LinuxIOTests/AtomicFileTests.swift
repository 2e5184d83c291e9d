@preconcurrency import Glibc
import TestSupport
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

    #expect(throws: IOError(operation: "read", path: path, errno: .fileTooLarge)) {
      try AtomicFile.read(path, limit: 10)
    }
  }

  @Test func writeIntoAMissingFolderThrowsAndCreatesNothing() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/missing/state"

    #expect(
      throws: IOError(
        operation: "open", path: "\(folder.path)/missing", errno: .noSuchFileOrDirectory)
    ) {
      try AtomicFile.write(Self.new, to: path)
    }
    #expect(folder.names() == [])
  }

  @Test func aFailedRenameRemovesTheTemporaryFile() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    // A folder that is not empty cannot be replaced by a file.
    #expect(mkdir(path, 0o755) == 0)
    try AtomicFile.write(Self.old, to: "\(path)/kept")

    #expect(throws: IOError(operation: "rename", path: path, errno: Errno(rawValue: EISDIR))) {
      try AtomicFile.write(Self.new, to: path)
    }
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

    #expect(throws: IOError.self) { try AtomicFile.write(Self.new, to: path) }
    #expect(try AtomicFile.read(path, limit: 4096) == Self.old)
    #expect(folder.names() == ["state"])
  }

  // MARK: - Setting aside

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
    var contents: [[UInt8]?] = []
    for newPath in newPaths {
      contents.append(try AtomicFile.read(newPath, limit: 4096))
    }
    #expect(contents == ["first\n", "second\n", "third\n"].map { Array($0.utf8) })
    #expect(
      folder.names() == [
        "state.corrupt-1764460800", "state.corrupt-1764460800-2", "state.corrupt-1764460800-3",
      ])
  }

  @Test func setAsideOfAMissingFileThrows() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"

    #expect(throws: IOError(operation: "rename", path: path, errno: .noSuchFileOrDirectory)) {
      try AtomicFile.setAside(path)
    }
  }

  @Test func setAsideMovesAFIFOOrAFolderOutOfTheWay() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    try folder.makeFIFO("state")
    let fifoAside = try AtomicFile.setAside(path, secondsSinceEpoch: 1)
    try folder.makeFolder("state")
    let folderAside = try AtomicFile.setAside(path, secondsSinceEpoch: 2)

    #expect(fifoAside == "\(path).corrupt-1")
    #expect(folderAside == "\(path).corrupt-2")
    try AtomicFile.write(Self.new, to: path)
    #expect(try AtomicFile.read(path, limit: 4096) == Self.new)
  }
}

/// What is at the state file's path, or beside it, when it is not what it should be.
@Suite struct AtomicFileHostilePathTests {
  static let contents = Array("version 1\n".utf8)

  @Test(arguments: ["fifo", "folder", "link", "socket"])
  func readRefusesAnythingButARegularFileAtOnce(kind: String) throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    var listener: UnixListener?
    defer { listener?.close() }
    switch kind {
    case "fifo": try folder.makeFIFO("state")
    case "folder": try folder.makeFolder("state")
    case "link":
      try AtomicFile.write(Self.contents, to: "\(folder.path)/elsewhere")
      #expect(symlink("\(folder.path)/elsewhere", path) == 0)
    default:
      listener = try UnixListener(path: path)
    }
    let expected: FileStatus.Kind =
      switch kind {
      case "fifo": .fifo
      case "folder": .directory
      case "link": .symbolicLink
      default: .socket
      }
    // A FIFO with no writer would block an open for reading for ever.
    #expect(throws: NotARegularFile(path: path, kind: expected)) {
      try AtomicFile.read(path, limit: 4096)
    }
  }

  @Test func aPlantedLinkAtTheTemporaryNameIsNeverFollowed() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    let victim = "\(folder.path)/victim"
    try AtomicFile.write(Array("precious\n".utf8), to: victim)
    // Someone guessed the first temporary name and planted a link there.
    #expect(symlink(victim, "\(folder.path)/.state.tmp-planted") == 0)
    var names = [".state.tmp-planted", ".state.tmp-second"]

    try AtomicFile.write(Self.contents, to: path) { _ in names.removeFirst() }

    #expect(try AtomicFile.read(victim, limit: 4096) == Array("precious\n".utf8))
    #expect(try AtomicFile.read(path, limit: 4096) == Self.contents)
    #expect(folder.names() == [".state.tmp-planted", "state", "victim"])
  }

  @Test func aPlantedFileAtTheTemporaryNameIsNeverReused() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    let planted = "\(folder.path)/.state.tmp-planted"
    try AtomicFile.write(Array("planted\n".utf8), to: planted)
    var names = [".state.tmp-planted", ".state.tmp-second"]

    try AtomicFile.write(Self.contents, to: path) { _ in names.removeFirst() }

    // The planted file, which its owner could go on writing to, did not become the state.
    #expect(try AtomicFile.read(planted, limit: 4096) == Array("planted\n".utf8))
    #expect(try AtomicFile.read(path, limit: 4096) == Self.contents)
  }

  @Test func temporaryNamesAreRandom() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    var created: Set<String> = []
    for _ in 0..<20 {
      let (_, trace) = try SystemCallTrace.record { try AtomicFile.write(Self.contents, to: path) }
      created.formUnion(trace.calls.filter { $0.name == "openat" }.flatMap(\.paths))
    }
    #expect(created.count == 20)
    #expect(created.allSatisfy { $0.hasPrefix(".state.tmp-") && $0.count == 27 })
  }

  @Test func staleTemporaryFilesAreRemovedAndLinksNotFollowed() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/state"
    let victim = "\(folder.path)/victim"
    try AtomicFile.write(Array("precious\n".utf8), to: victim)
    try AtomicFile.write(Self.contents, to: path)
    try AtomicFile.write(Self.contents, to: "\(folder.path)/.state.tmp-1234")
    try AtomicFile.write(Self.contents, to: "\(folder.path)/.state.tmp-0123456789abcdef")
    #expect(symlink(victim, "\(folder.path)/.state.tmp-link") == 0)
    try AtomicFile.write(Self.contents, to: "\(folder.path)/.other.tmp-1")
    try folder.makeFolder(".state.tmp-folder")

    let removed = try AtomicFile.removeTemporaryFiles(of: path)

    #expect(removed == [".state.tmp-0123456789abcdef", ".state.tmp-1234", ".state.tmp-link"])
    #expect(folder.names() == [".other.tmp-1", ".state.tmp-folder", "state", "victim"])
    #expect(try AtomicFile.read(victim, limit: 4096) == Array("precious\n".utf8))
  }
}

/// The order of the four steps that make a write durable, seen in the system calls
/// themselves, and what each failing step leaves behind.
@Suite struct AtomicFileDurabilityTests {
  static let old = Array("version 1\nfield home 12\n".utf8)
  static let new = Array("version 1\nfield home 14\n".utf8)

  /// The calls of one write, made in a fresh folder that holds `old`.
  static func traceOfAWrite(failing prepare: (SystemCallTrace) -> Void = { _ in }) throws
    -> (folder: TemporaryFolder, error: (any Error)?, calls: [SystemCallTrace.Call])
  {
    let folder = try TemporaryFolder()
    try AtomicFile.write(old, to: "\(folder.path)/state")
    var thrown: (any Error)?
    let (_, trace) = SystemCallTrace.record(failing: prepare) {
      do {
        try AtomicFile.write(new, to: "\(folder.path)/state")
      } catch {
        thrown = error
      }
    }
    return (folder, thrown, trace.calls)
  }

  @Test func writeFlushRenameFlushTheFolderInThisOrder() throws {
    let (_, error, calls) = try Self.traceOfAWrite()
    #expect(error == nil)

    let steps = calls.filter {
      ["openat", "write", "fsync", "close", "renameat"].contains($0.name)
    }
    try #require(steps.count == 7, "\(calls)")
    let folderDescriptor = try #require(steps[0].descriptor)
    let temporary = try #require(steps[0].paths.first)
    #expect(steps[0].name == "openat")
    #expect(temporary.hasPrefix(".state.tmp-"))
    let fileDescriptor = try #require(steps[1].descriptor)
    #expect(steps[1] == .init(name: "write", descriptor: fileDescriptor, paths: []))
    #expect(steps[2] == .init(name: "fsync", descriptor: fileDescriptor, paths: []))
    #expect(steps[3] == .init(name: "close", descriptor: fileDescriptor, paths: []))
    #expect(
      steps[4]
        == .init(name: "renameat", descriptor: folderDescriptor, paths: [temporary, "state"]))
    #expect(steps[5] == .init(name: "fsync", descriptor: folderDescriptor, paths: []))
    #expect(steps[6] == .init(name: "close", descriptor: folderDescriptor, paths: []))
  }

  @Test func theFolderIsOpenedBeforeTheFileAndEveryStepWorksInIt() throws {
    let (folder, _, calls) = try Self.traceOfAWrite()
    #expect(calls.first?.name == "open")
    #expect(calls.first?.paths == [folder.path])
    #expect(!calls.contains { $0.name == "open" && $0.paths != [folder.path] })
    #expect(!calls.contains { $0.name == "rename" || $0.name == "unlink" })
  }

  @Test(arguments: [
    ("write", Errno.noSpace), ("fsync", .ioError), ("close", .ioError), ("renameat", .ioError),
    ("openat", .noSpace), ("openat", .readOnlyFileSystem),
  ])
  func aFailingStepBeforeTheRenameKeepsTheOldFileAndLeavesNothing(call: String, errno: Errno)
    throws
  {
    let (folder, error, _) = try Self.traceOfAWrite { trace in
      // The first fsync and close are the file's; the folder's come after the rename.
      trace.fail(call, with: errno)
    }
    let failure = try #require(error as? IOError)
    #expect(failure.errno == errno)
    #expect(try AtomicFile.read("\(folder.path)/state", limit: 4096) == Self.old)
    #expect(folder.names() == ["state"], "no temporary file is left")
  }

  @Test func aFailingFlushOfTheFolderIsReported() throws {
    var fsyncs = 0
    let (folder, error, calls) = try Self.traceOfAWrite { trace in
      // The first fsync is the file's, the second the folder's.
      trace.fail("fsync", with: .ioError) { _ in
        fsyncs += 1
        return fsyncs == 2
      }
    }
    #expect(error as? IOError == IOError(operation: "fsync", path: folder.path, errno: .ioError))
    #expect(calls.filter { $0.name == "fsync" }.count == 2)
  }
}
