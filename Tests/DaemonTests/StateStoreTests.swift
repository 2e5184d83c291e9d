@preconcurrency import Glibc
import ScoreboardCore
import TestSupport
import Testing

@testable import LinuxIO
@testable import ScoreboardDaemon

/// The state file under failing disks, with failures injected at the system-call seam:
/// what the store answers, logs, retries and leaves on disk.
@Suite struct StateStoreTests {
  static let first = SavedState(values: ["home": "1"], brightness: 8, isBlanked: false)
  static let second = SavedState(values: ["home": "2"], brightness: 8, isBlanked: false)
  static let third = SavedState(values: ["home": "3"], brightness: 8, isBlanked: false)

  static func onDisk(_ folder: TemporaryFolder) throws -> SavedState? {
    guard let text = folder.readNewest("state") else { return nil }
    return try SavedState(parsing: text)
  }

  @Test func aSaveIsDurableAndAnIdenticalOneWritesNothing() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    #expect(store.saved(Self.first, at: .zero))
    #expect(try Self.onDisk(folder) == Self.first)
    let (saved, trace) = SystemCallTrace.record { store.saved(Self.first, at: .zero) }
    #expect(saved)
    #expect(trace.calls.isEmpty, "the file holds it already")
    #expect(store.health == .saved)
    #expect(store.status == .saved)
  }

  /// The first save makes the file; the later ones write in place, one of these calls
  /// failing.
  @Test(arguments: [
    ("lstatat", Errno.ioError), ("open", .readOnlyFileSystem), ("fstat", .ioError),
    ("pwrite", .noSpace), ("pwrite", .ioError), ("fdatasync", .ioError), ("close", .ioError),
  ])
  func aFailingWriteInPlaceIsNotDurableAndSaysWhyOnce(call: String, errno: Errno) throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    #expect(store.saved(Self.first, at: .zero))
    try expectFailingSaves(call: call, errno: errno, store: store, folder: folder, log: log)
  }

  /// A file of the scores alone (as an older scoreboardd wrote it) is read, and the next
  /// save makes the file of slots anew, one of these calls failing.
  @Test(arguments: [
    ("openat", Errno.noSpace), ("openat", .readOnlyFileSystem), ("write", .noSpace),
    ("fsync", .ioError), ("renameat", .ioError), ("close", .ioError),
  ])
  func aFailingNewFileIsNotDurableAndSaysWhyOnce(call: String, errno: Errno) throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    try folder.write("state", Self.first.encoded())
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    #expect(store.load(at: .zero) == Self.first)
    try expectFailingSaves(call: call, errno: errno, store: store, folder: folder, log: log)
  }

  private func expectFailingSaves(
    call: String, errno: Errno, store: StateStore, folder: TemporaryFolder, log: LogCapture
  ) throws {
    let failures: (SystemCallTrace) -> Void = {
      $0.fail(call, with: errno, times: 10) { $0.descriptor != log.descriptor }
    }
    let (saved, _) = SystemCallTrace.record(failing: failures) {
      (store.saved(Self.second, at: .seconds(1)), store.saved(Self.third, at: .seconds(2)))
    }
    #expect(saved == (false, false))
    guard case .failing(_, let reason) = store.health else {
      Issue.record("health \(store.health)")
      return
    }
    #expect(reason.contains(errno.description), "\(reason)")
    #expect(
      store.unsavedReason?.hasPrefix("cannot write \(folder.path(of: "state")) since ") == true)
    if case .failing = store.status {} else { Issue.record("status \(store.status)") }
    if ["fdatasync", "close"].contains(call) {
      // The slot being written holds the new state, perhaps not on the disk yet; the
      // other slot still holds the old one.
      #expect([Self.first, Self.third].contains(try Self.onDisk(folder)))
    } else {
      #expect(try Self.onDisk(folder) == Self.first, "the old state is whole")
    }
    #expect(folder.names() == ["state"], "no temporary file is left")
    let errors = log.lines.filter { $0.hasPrefix("<3>") }
    #expect(errors.count == 1, "said once: \(errors)")
    #expect(errors.first?.contains("cannot save the scores") == true)

    // The disk works again: the next save makes the latest state durable.
    #expect(store.saved(Self.third, at: .seconds(3)))
    #expect(try Self.onDisk(folder) == Self.third)
    #expect(store.health == .saved)
  }

  @Test func aRetryMakesTheLatestStateDurableWithoutANewChange() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    let failures: (SystemCallTrace) -> Void = { $0.fail("fsync", with: .ioError, times: 100) }
    _ = SystemCallTrace.record(failing: failures) {
      #expect(!store.saved(Self.second, at: .seconds(10)))
      // Too early: nothing is tried.
      store.retryIfDue(at: .seconds(10) + .milliseconds(500))
      #expect(store.retryAt == .seconds(11))
      store.retryIfDue(at: .seconds(11))
      #expect(store.retryAt == .seconds(13), "the delay doubles")
    }
    #expect(try Self.onDisk(folder) == nil)

    // The disk works again: the next retry saves what is pending.
    store.retryIfDue(at: .seconds(13))
    #expect(store.health == .saved)
    #expect(store.retryAt == nil)
    #expect(try Self.onDisk(folder) == Self.second)
    #expect(
      log.lines.contains { $0.hasPrefix("<5>the scores are saved in") && $0.contains("again") })
  }

  @Test func theFirstSuccessAfterFailuresIsReportedAndTheDelayStartsOver() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    let failures: (SystemCallTrace) -> Void = {
      $0.fail("write", with: .noSpace, times: 3) { $0.descriptor != log.descriptor }
    }
    _ = SystemCallTrace.record(failing: failures) {
      #expect(!store.saved(Self.first, at: .zero))
      #expect(!store.saved(Self.second, at: .seconds(1)))
      #expect(!store.saved(Self.third, at: .seconds(2)))
      #expect(store.saved(Self.third, at: .seconds(3)), "a new change tries at once")
    }
    #expect(try Self.onDisk(folder) == Self.third)
    #expect(store.retryAt == nil)
  }

  @Test func aFolderAtThePathIsSetAsideAndTheFileWritten() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    try folder.makeFolder("state")
    try folder.write("state/inside", "kept\n")

    #expect(store.saved(Self.first, at: .zero))
    #expect(try Self.onDisk(folder) == Self.first)
    let aside = try #require(folder.names().first { $0.hasPrefix("state.corrupt-") })
    #expect(folder.names(in: aside) == ["inside"])
  }

  @Test(arguments: ["fifo", "folder", "link", "large", "damaged"])
  func anUnusableFileIsSetAsideAtStart(kind: String) throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    switch kind {
    case "fifo": try folder.makeFIFO("state")
    case "folder": try folder.makeFolder("state")
    case "link":
      try folder.write("elsewhere", Self.first.encoded())
      #expect(symlink(folder.path(of: "elsewhere"), folder.path(of: "state")) == 0)
    case "large":
      try folder.write("state", Self.first.encoded() + String(repeating: "#\n", count: 40_000))
    default:
      try folder.write("state", "version 1\nfield home\n")
    }
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    #expect(store.load(at: .zero) == nil)
    #expect(folder.names().contains { $0.hasPrefix("state.corrupt-") }, "\(folder.names())")
    #expect(!folder.names().contains("state"))
    #expect(log.lines.contains { $0.contains("set aside as") })
    #expect(store.saved(Self.first, at: .zero))
    #expect(try Self.onDisk(folder) == Self.first)
    if kind == "link" {
      #expect(folder.read("elsewhere") == Self.first.encoded(), "the link's target is untouched")
    }
  }

  @Test func aFileWithWindowsLineEndsIsRestored() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    try folder.write("state", "version 1\r\nbrightness 4\r\nfield home 12\r\n")
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    #expect(store.load(at: .zero) == SavedState(values: ["home": "12"], brightness: 4))
    #expect(folder.names() == ["state"])
  }

  @Test func prepareRemovesTemporaryFilesOfAKilledDaemon() throws {
    let folder = try TemporaryFolder()
    let log = try LogCapture()
    try folder.write(".state.tmp-1234", "half")
    try folder.write(".state.tmp-0a1b2c3d4e5f6789", "half")
    try folder.write("state", Self.first.encoded())
    let store = StateStore(path: folder.path(of: "state"), logger: log.logger)
    try store.prepare()
    #expect(folder.names() == ["state"])
  }

  @Test(arguments: [0o777, 0o1777, 0o770, 0o702])
  func prepareRefusesAFolderOthersMayWriteTo(mode: Int) throws {
    let parent = try TemporaryFolder()
    let folder = try parent.makeFolder("shared", mode: mode_t(mode))
    let log = try LogCapture()
    let store = StateStore(path: folder + "/state", logger: log.logger)
    #expect {
      try store.prepare()
    } throws: { error in
      let error = error as? DaemonError
      return error?.exitCode == .configuration
        && error?.message.contains("\(folder) may be written to by other users") == true
    }
  }

  @Test func noStateFileIsAlwaysSaved() {
    let store = StateStore(path: nil, logger: Logger(programName: "test"))
    #expect(store.saved(Self.first, at: .zero))
    #expect(store.health == .off)
    #expect(store.status == .none)
    #expect(store.unsavedReason == nil)
  }
}

extension StateStore {
  /// Whether `state` is saved at once, as a store without its thread does.
  fileprivate func saved(_ state: SavedState, at now: Instant) -> Bool {
    save(state, at: now) == .done(unsavedReason: nil)
  }
}
