@preconcurrency import Glibc
import TestSupport
import Testing

@testable import LinuxIO

/// The state file's writing thread: what it writes, what it says, and that it gives way
/// to the thread that made it.
@Suite struct BackgroundFileWriterTests {
  @Test func writesDurablyOnANicerThreadAndSaysSo() throws {
    let folder = try TemporaryFolder()
    // Other tests run daemons in this process, each with a writer of its own: this
    // writer's thread is one of those that were not there before it.
    func writerThreads() -> [ProcessThreads.Thread] {
      ProcessThreads.of().filter { $0.name == BackgroundFileWriter.threadName }
    }
    let before = Set(writerThreads().map(\.id))
    let writer = try BackgroundFileWriter()
    #expect(!writer.isBusy)
    let file = TwoSlotFile(path: folder.path(of: "state"))
    try writer.start(Array("home 7\n".utf8), to: file, ticket: 3)
    #expect(writer.isBusy)
    let result = try #require(writer.waitForResult())
    #expect(result.ticket == 3)
    #expect(result.failure == nil)
    #expect(!writer.isBusy)
    #expect(folder.readNewest("state") == "home 7\n")
    try writer.start(Array("home 8\n".utf8), to: file, ticket: 4)
    #expect(try #require(writer.waitForResult()).failure == nil)
    #expect(folder.readNewest("state") == "home 8\n", "written in place, in the other slot")
    // The thread wakes its caller after letting the result go: taken by waiting, the
    // result's wake-up comes once, for nothing, and is not left in the descriptor.
    var entry = pollfd(fd: writer.completions.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 10_000) == 1, "the wake-up comes")
    #expect(writer.takeResult() == nil)
    #expect(poll(&entry, 1, 0) == 0, "and is taken with it")

    let threads = ProcessThreads.of()
    let own = try #require(threads.first { $0.id == Int(getpid()) }).nice
    let writing = writerThreads().filter { !before.contains($0.id) }
    #expect(!writing.isEmpty, "\(threads)")
    let niceness = min(own + Int(BackgroundFileWriter.niceness), 19)
    #expect(writing.allSatisfy { $0.nice == niceness }, "\(writing)")
    writer.close()
    let remaining = Set(writerThreads().map(\.id))
    #expect(writing.contains { !remaining.contains($0.id) }, "its thread ends with it")
  }

  @Test func aFailedWriteSaysWhichCallFailedAndTheCompletionDescriptorWakes() throws {
    let folder = try TemporaryFolder()
    let writer = try BackgroundFileWriter()
    try writer.start([1, 2, 3], to: TwoSlotFile(path: folder.path(of: "missing/state")), ticket: 1)
    var entry = pollfd(fd: writer.completions.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 10_000) == 1, "the descriptor is readable once the write ends")
    let result = try #require(writer.takeResult())
    #expect(result.failure?.contains("ENOENT") == true, "\(result)")
    #expect(writer.takeResult() == nil)
    #expect(poll(&entry, 1, 0) == 0, "taken: no longer readable")
  }
}
