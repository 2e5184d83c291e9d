@preconcurrency import Glibc
import TestSupport
import Testing

@testable import LinuxIO

/// The state file's two slots: written in place after the first write, the newest whole
/// slot read back, and whatever a power cut leaves of a write read as the version before
/// or the new one, never anything else.
@Suite struct TwoSlotFileTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static func status(_ path: String) throws -> FileStatus {
    try FileStatus.ofEntry(at: path)
  }

  static func contents(of path: String) throws -> [UInt8] {
    try FileDescriptor.readRegularFile(path, limit: 1 << 20)
  }

  /// Writes `bytes` as the whole file at `path`, as a test's disk might have left it.
  static func put(_ bytes: [UInt8], at path: String) throws {
    let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .closeOnExec])
    defer { try? file.close() }
    _ = ftruncate(file.rawValue, 0)
    try file.writeAll(bytes)
  }

  /// The file `state` in `folder`, written with each of `versions` in turn.
  static func file(
    in folder: TemporaryFolder, writing versions: String...
  ) throws -> (path: String, file: TwoSlotFile) {
    let path = folder.path(of: "state")
    let file = TwoSlotFile(path: path)
    for version in versions {
      try file.write(bytes(version))
    }
    return (path, file)
  }

  /// Flips a bit of the byte at `offset` of the file at `path`, as a damaged disk would.
  static func damage(_ path: String, at offsets: Int...) throws {
    var bytes = try contents(of: path)
    for offset in offsets {
      bytes[offset] ^= 0x01
    }
    try put(bytes, at: path)
  }

  /// The newest version as a fresh reader finds it, in text.
  static func newest(_ path: String) throws -> String? {
    try TwoSlotFile(path: path).read(limit: 64 * 1024).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func writesInPlaceAfterTheFileIsMade() throws {
    let folder = try TemporaryFolder()
    let path = folder.path(of: "state")
    let file = TwoSlotFile(path: path)
    let (_, making) = try SystemCallTrace.record { try file.write(Self.bytes("first\n")) }
    #expect(making.calls.contains { $0.name == "renameat" }, "\(making.calls)")
    let made = try Self.status(path)
    #expect(made.size == 8192, "two slots of one block")

    for text in ["second\n", "third\n", "fourth\n"] {
      let (_, trace) = try SystemCallTrace.record { try file.write(Self.bytes(text)) }
      #expect(
        trace.calls.map(\.name) == ["lstatat", "open", "fstat", "pwrite", "fdatasync", "close"],
        "\(trace.calls)")
      #expect(try Self.newest(path) == text)
    }
    let after = try Self.status(path)
    #expect(after.identity == made.identity, "the same file")
    #expect(after.size == made.size)
    #expect(folder.names() == ["state"])

    let text = String(decoding: try Self.contents(of: path), as: UTF8.self)
    #expect(text.hasPrefix("slot 3 6 "), "\(text.prefix(40))")
    #expect(text.contains("\nthird\n"))
    #expect(text.contains("\nfourth\n"))
    #expect(text.utf8.dropFirst(4096).starts(with: Self.bytes("slot 4 7 ")))
  }

  @Test func aReaderTakesTheNewestWholeSlotAndTheNextWriteGoesToTheOther() throws {
    let folder = try TemporaryFolder()
    let (path, _) = try Self.file(in: folder, writing: "one\n", "two\n")
    #expect(try Self.newest(path) == "two\n")

    // The newer slot (the second) damaged: the older one is read.
    try Self.damage(path, at: 4096 + 27)
    let reader = TwoSlotFile(path: path)
    #expect(try reader.read(limit: 1024) == Self.bytes("one\n"))

    // Its next write replaces the damaged slot, not the one it read.
    try reader.write(Self.bytes("three\n"))
    #expect(try Self.newest(path) == "three\n")
    try Self.damage(path, at: 4096 + 27)
    #expect(try Self.newest(path) == "one\n")
  }

  /// Every way a write of the next version can be cut short, its 512-byte sectors
  /// reaching the disk in any order: the first `count` bytes, and random sets of
  /// sectors.
  @Test func aWriteCutShortLeavesTheVersionBeforeOrTheNewOne() throws {
    let folder = try TemporaryFolder()
    let (path, file) = try Self.file(
      in: folder, writing: "version 1\nfield home 1\n", "version 1\nfield home 2\n")
    let before = try Self.contents(of: path)
    let longer = "version 1\nfield home 3\n" + String(repeating: "command x\n", count: 300)
    try file.write(Self.bytes(longer))
    let after = try Self.contents(of: path)
    #expect(before.count == after.count)
    let changed = before.indices.filter { before[$0] != after[$0] }
    #expect(changed.allSatisfy { $0 < after.count / 2 }, "only the first slot was written")

    let torn = folder.path(of: "torn")
    var outcomes: [String: Int] = [:]
    func check(_ bytes: [UInt8], _ what: String) throws {
      try Self.put(bytes, at: torn)
      let read = try Self.newest(torn)
      #expect(read == "version 1\nfield home 2\n" || read == longer, "\(what)")
      outcomes[read == longer ? "new" : "before", default: 0] += 1
    }
    for count in stride(from: 0, through: after.count, by: 64) {
      try check(Array(after[..<count] + before[count...]), "the first \(count) bytes")
    }
    var random = SeededRandom.forTest("aWriteCutShortLeavesTheVersionBeforeOrTheNewOne")
    let sectors = after.count / 2 / 512
    for _ in 0..<300 {
      var bytes = before
      for sector in 0..<sectors where Bool.random(using: &random) {
        bytes.replaceSubrange(
          (sector * 512)..<((sector + 1) * 512), with: after[(sector * 512)..<((sector + 1) * 512)])
      }
      try check(bytes, "random sectors, seed \(random.seed)")
    }
    #expect(outcomes["new", default: 0] > 0)
    #expect(outcomes["before", default: 0] > 0)
  }

  @Test(
    arguments: [
      ("both slots damaged", nil),
      ("two slots and a block", "slot 1 4 0000000000000000\nabc\n"),
      ("no filling", "slot 1 3 af63bd4c8601b7df\nabc"),
    ] as [(String, String?)])
  func aFileOfSlotsWithNoWholeSlotIsDamaged(what: String, text: String?) throws {
    let folder = try TemporaryFolder()
    let path = folder.path(of: "state")
    if let text {
      var bytes = Self.bytes(text)
      if what == "two slots and a block" {
        bytes += repeatElement(UInt8(ascii: "\n"), count: 3 * 4096 - bytes.count)
      }
      try Self.put(bytes, at: path)
    } else {
      _ = try Self.file(in: folder, writing: "one\n", "two\n")
      try Self.damage(path, at: 12, 4096 + 12)
    }
    #expect(throws: TwoSlotFile.Damaged.self, "\(what)") { try Self.newest(path) }
    #expect(
      "\(TwoSlotFile.Damaged(path: path))"
        == "\(path): neither of its two copies is whole (a length or a checksum does not match)")
  }

  /// A slot's first line must be exactly `slot SEQUENCE LENGTH CHECKSUM`.
  @Test(arguments: [
    "slot 1 4", "slot 1 4 c",
    "slot -1 4 CHECKSUM", "slot +1 4 CHECKSUM", "slot 1 5 CHECKSUM", "slot 1 3 CHECKSUM",
    "slot 1  4 CHECKSUM", "slot 1 4 CHECKSUM ", "Slot 1 4 CHECKSUM",
    "slot 18446744073709551616 4 CHECKSUM", "slot 1 99999999999999999999 CHECKSUM",
    "slot 123456789012345678901 4 CHECKSUM",
    "slot 1 4 UPPERCASE", "slot 1 4 0CHECKSUM",
  ])
  func aSlotWhoseFirstLineIsWrongIsNotWhole(header: String) {
    let contents = Self.bytes("abc\n")
    var checksum = String(TwoSlotFile.fnv1a(contents), radix: 16)
    checksum = String(repeating: "0", count: 16 - checksum.count) + checksum
    let line =
      header
      .replacing("UPPERCASE", with: checksum.uppercased())
      .replacing("CHECKSUM", with: checksum)
    var bytes = Self.bytes(line + "\n") + contents
    bytes += repeatElement(UInt8(ascii: "\n"), count: 8192 - bytes.count)
    #expect(TwoSlotFile.newestVersion(in: bytes) == nil, "\(line)")

    var right = TwoSlotFile.slot(holding: contents, sequence: 1)
    right += repeatElement(UInt8(ascii: "\n"), count: 8192 - right.count)
    #expect(TwoSlotFile.newestVersion(in: right).map { Array($0.contents) } == contents)
  }

  /// A file whose newest number is the highest there is (a damaged or planted file)
  /// is read, and the next write starts a new file at 1 rather than wrap around.
  @Test func theHighestNumberStartsANewFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.path(of: "state")
    var bytes = TwoSlotFile.slot(holding: Self.bytes("last\n"), sequence: .max)
    bytes += repeatElement(UInt8(ascii: "\n"), count: 8192 - bytes.count)
    #expect(String(decoding: bytes.prefix(26), as: UTF8.self) == "slot 18446744073709551615 ")
    try Self.put(bytes, at: path)
    let file = TwoSlotFile(path: path)
    #expect(try file.read(limit: 1024) == Self.bytes("last\n"))
    let (_, trace) = try SystemCallTrace.record { try file.write(Self.bytes("next\n")) }
    #expect(trace.calls.contains { $0.name == "renameat" })
    #expect(try Self.newest(path) == "next\n")
    #expect(String(decoding: try Self.contents(of: path).prefix(7), as: UTF8.self) == "slot 1 ")
    try file.write(Self.bytes("after\n"))
    #expect(try Self.newest(path) == "after\n")
  }

  @Test func theContentsAloneAreReadAndTheNextWriteMakesTheFileOfSlots() throws {
    let folder = try TemporaryFolder()
    let path = folder.path(of: "state")
    try Self.put(Self.bytes("version 1\nfield home 4\n"), at: path)
    let file = TwoSlotFile(path: path)
    #expect(try file.read(limit: 1024) == Self.bytes("version 1\nfield home 4\n"))
    let (_, trace) = try SystemCallTrace.record { try file.write(Self.bytes("five\n")) }
    #expect(trace.calls.contains { $0.name == "renameat" })
    #expect(try Self.status(path).size == 8192)
    #expect(try Self.newest(path) == "five\n")

    #expect(throws: IOError.self) { try TwoSlotFile(path: path).read(limit: 4) }
    try Self.put(Self.bytes("version 1\n"), at: path)
    #expect(throws: IOError.self) { try TwoSlotFile(path: path).read(limit: 4) }
  }

  @Test func contentsThatOutgrowTheirSlotMakeTheFileAnew() throws {
    let folder = try TemporaryFolder()
    let (path, file) = try Self.file(in: folder, writing: "small\n")
    let large = String(repeating: "command 0123456789\n", count: 300)
    let (_, growing) = try SystemCallTrace.record { try file.write(Self.bytes(large)) }
    #expect(growing.calls.contains { $0.name == "renameat" })
    let grown = try Self.status(path)
    #expect(grown.size == 2 * 12288, "5,700 bytes and half as much again: three blocks a slot")
    #expect(try Self.newest(path) == large)

    let (_, trace) = try SystemCallTrace.record { try file.write(Self.bytes("small again\n")) }
    #expect(!trace.calls.contains { $0.name == "renameat" }, "in place")
    #expect(try Self.status(path).identity == grown.identity)
    #expect(try Self.newest(path) == "small again\n")
  }

  /// A file put in its place (by a person, a restore from a backup, a link) is never
  /// written into: the next write makes the file anew, and the other file is intact.
  @Test(arguments: ["file", "link", "removed"])
  func somethingElseAtThePathIsReplacedNotWrittenInto(kind: String) throws {
    let folder = try TemporaryFolder()
    let (path, file) = try Self.file(in: folder, writing: "ours\n")
    let other = folder.path(of: "other")
    let theirs = TwoSlotFile(path: other)
    try theirs.write(Self.bytes("theirs\n"))
    try theirs.write(Self.bytes("theirs, again\n"))
    let kept = try Self.contents(of: other)
    switch kind {
    case "file":
      #expect(link(other, folder.path(of: "kept")) == 0)
      #expect(rename(other, path) == 0)
    case "link":
      #expect(unlink(path) == 0)
      #expect(symlink(other, path) == 0)
    default:
      #expect(unlink(path) == 0)
    }
    try file.write(Self.bytes("ours, again\n"))
    #expect(try Self.status(path).kind == .regular)
    #expect(try Self.newest(path) == "ours, again\n")
    switch kind {
    case "file": #expect(try Self.contents(of: folder.path(of: "kept")) == kept)
    case "link": #expect(try Self.contents(of: other) == kept)
    default: break
    }
  }

  /// A write in place that fails may leave its slot damaged; the newest version is
  /// whole, and the next write goes to the same slot.
  @Test func aFailedWriteInPlaceIsTriedAgainInTheSameSlot() throws {
    let folder = try TemporaryFolder()
    let (path, file) = try Self.file(in: folder, writing: "one\n", "two\n")
    let failing: (SystemCallTrace) -> Void = { $0.fail("fdatasync", with: .ioError) }
    _ = SystemCallTrace.record(failing: failing) {
      #expect(throws: IOError.self) { try file.write(Self.bytes("three\n")) }
    }
    try Self.damage(path, at: 27)
    #expect(try Self.newest(path) == "two\n", "the slot it was writing damaged, the other whole")

    try file.write(Self.bytes("four\n"))
    #expect(try Self.newest(path) == "four\n")
    try Self.damage(path, at: 27)
    #expect(try Self.newest(path) == "two\n", "four went to the first slot again")
  }

  @Test func aFailureNamesTheCallAndTheFile() throws {
    let folder = try TemporaryFolder()
    let (path, file) = try Self.file(in: folder, writing: "one\n")
    for call in ["pwrite", "fdatasync", "close"] {
      let failing: (SystemCallTrace) -> Void = { $0.fail(call, with: .ioError) }
      let (error, _) = try SystemCallTrace.record(failing: failing) {
        try thrownError(IOError.self) { try file.write(Self.bytes("two\n")) }
      }
      #expect(error.operation == call)
      #expect(error.path == path)
    }
    #expect(try TwoSlotFile(path: folder.path(of: "missing")).read(limit: 16) == nil)
  }
}
