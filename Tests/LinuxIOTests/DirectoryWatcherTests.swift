@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// `DirectoryWatcher` on temporary folders.
@Suite struct DirectoryWatcherTests {
  @Test func reportsEntriesCreatedChangedMovedInAndDeleted() throws {
    let folder = try TemporaryFolder()
    let watcher = try DirectoryWatcher()
    try watcher.watch(folder.path + "/")
    #expect(fcntl(watcher.fileDescriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    #expect(try watcher.readChanges() == [])

    let node = try folder.makeFIFO("event3")
    chmod(node, 0o660)
    try folder.makeFIFO("temporary")
    rename("\(folder.path)/temporary", "\(folder.path)/event4")
    unlink(node)
    #expect(
      try watcher.readChanges() == [
        DirectoryWatcher.Change(directory: folder.path, name: "event3", kind: .created),
        DirectoryWatcher.Change(directory: folder.path, name: "event3", kind: .attributesChanged),
        DirectoryWatcher.Change(directory: folder.path, name: "temporary", kind: .created),
        DirectoryWatcher.Change(directory: folder.path, name: "temporary", kind: .deleted),
        DirectoryWatcher.Change(directory: folder.path, name: "event4", kind: .movedIn),
        DirectoryWatcher.Change(directory: folder.path, name: "event3", kind: .deleted),
      ])
    #expect(try watcher.readChanges() == [])
    watcher.close()
    watcher.close()
  }

  @Test func watchesAFolderThatAppearsLater() throws {
    let folder = try TemporaryFolder()
    let watcher = try DirectoryWatcher()
    let byID = "\(folder.path)/input/by-id"
    try watcher.watch(byID)

    // Entries of the ancestors are not reported; the watched folder appearing is.
    try folder.makeFolder("input")
    try folder.makeFIFO("input/event3")
    #expect(try watcher.readChanges() == [])
    try folder.makeFolder("input/by-id")
    #expect(
      try watcher.readChanges() == [
        DirectoryWatcher.Change(directory: "\(folder.path)/input", name: "by-id", kind: .created)
      ])
    symlink("../event3", "\(byID)/usb-pad-event-kbd")
    #expect(
      try watcher.readChanges() == [
        DirectoryWatcher.Change(directory: byID, name: "usb-pad-event-kbd", kind: .created)
      ])

    // Deleted, then created again: watched again.
    folder.remove("input/by-id")
    _ = try watcher.readChanges()
    try folder.makeFolder("input/by-id")
    _ = try watcher.readChanges()
    symlink("../event3", "\(byID)/usb-pad-event-kbd")
    #expect(
      try watcher.readChanges() == [
        DirectoryWatcher.Change(directory: byID, name: "usb-pad-event-kbd", kind: .created)
      ])
  }

  @Test func isReadableOnlyWhenSomethingChanged() throws {
    let folder = try TemporaryFolder()
    let watcher = try DirectoryWatcher()
    try watcher.watch(folder.path)
    let loop = PollLoop()
    var calls = 0
    loop.watch(watcher.fileDescriptor, for: .readable) { _ in calls += 1 }
    #expect(try loop.runOnce(timeout: .milliseconds(20)) == 0)
    try folder.makeFIFO("event3")
    #expect(try loop.runOnce(timeout: .seconds(5)) == 1)
    _ = try watcher.readChanges()
    #expect(try loop.runOnce(timeout: .milliseconds(20)) == 0)
    #expect(calls == 1)
  }
}
