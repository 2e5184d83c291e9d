import CScoreboardLinux
@preconcurrency import Glibc
import LinuxIO
import Testing

/// `sbl_epoll_watching`, which merges the event descriptors of GPIO requests on several
/// chips into one descriptor for the poll loop.
@Suite struct GPIOEventSetTests {
  static func isReadable(_ descriptor: FileDescriptor) -> Bool {
    var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
  }

  @Test func isReadableWhileAnyWatchedDescriptorIs() throws {
    let first = try FileDescriptor.pipe()
    let second = try FileDescriptor.pipe()
    defer {
      for descriptor in [first.readEnd, first.writeEnd, second.readEnd, second.writeEnd] {
        try? descriptor.close()
      }
    }
    let watched = [first.readEnd.rawValue, second.readEnd.rawValue]
    let set = FileDescriptor(rawValue: sbl_epoll_watching(watched, watched.count))
    try #require(set.rawValue != -1)
    defer { try? set.close() }
    #expect(fcntl(set.rawValue, F_GETFD) & FD_CLOEXEC != 0)

    #expect(!Self.isReadable(set))
    try second.writeEnd.writeAll([1])
    #expect(Self.isReadable(set))
    var byte: UInt8 = 0
    #expect(read(second.readEnd.rawValue, &byte, 1) == 1)
    #expect(!Self.isReadable(set))
  }

  @Test func failsOnADescriptorThatIsNotOpen() {
    let descriptors: [CInt] = [-1]
    #expect(sbl_epoll_watching(descriptors, 1) == -1)
    #expect(errno == EBADF)
  }
}
