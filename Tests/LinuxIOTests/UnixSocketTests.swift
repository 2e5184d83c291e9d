@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

@Suite struct UnixSocketTests {
  static func mode(of path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode : nil
  }

  static func write(_ text: String, to connection: UnixConnection) throws {
    let bytes = Array(text.utf8)
    let written = try bytes.withUnsafeBytes { try connection.write($0) }
    #expect(written == bytes.count)
  }

  /// Reads what is available, waiting up to 5 s for something: nil at the end.
  static func read(from connection: UnixConnection) throws -> String? {
    var entry = pollfd(fd: connection.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 5000) == 1)
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = try buffer.withUnsafeMutableBytes { try connection.read(into: $0) }
    return count == 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
  }

  @Test func listensWithTheGivenModeAndRemovesItsFileOnClose() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/control"
    let listener = try UnixListener(path: path)
    #expect(Self.mode(of: path) == S_IFSOCK | 0o660)
    listener.close()
    #expect(Self.mode(of: path) == nil)
    listener.close()

    let restricted = try UnixListener(path: path, permissions: 0o600)
    #expect(Self.mode(of: path) == S_IFSOCK | 0o600)
    restricted.close()
  }

  @Test func acceptsConnectionsThatCarryBytesBothWays() throws {
    let folder = try TemporaryFolder()
    let listener = try UnixListener(path: folder.path + "/control")
    let early = try listener.accept()
    #expect(early == nil, "nothing waits yet")

    let client = try UnixConnection.connect(to: listener.path, timeout: .seconds(1))
    let accepted = try listener.accept()
    let server = try #require(accepted)
    let another = try listener.accept()
    #expect(another == nil)
    try Self.write("status\n", to: client)
    let request = try Self.read(from: server)
    #expect(request == "status\n")
    try Self.write("ok\n", to: server)
    let answer = try Self.read(from: client)
    #expect(answer == "ok\n")

    #expect(throws: IOError(operation: "read", errno: .wouldBlock)) {
      var buffer = [UInt8](repeating: 0, count: 8)
      _ = try buffer.withUnsafeMutableBytes { try client.read(into: $0) }
    }
    client.close()
    let end = try Self.read(from: server)
    #expect(end == nil, "the end of the input")
    #expect {
      try Self.write("late\n", to: server)
    } throws: { error in
      (error as? IOError)?.errno == .brokenPipe
    }
  }

  @Test func aLiveListenerIsNotReplaced() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/control"
    let first = try UnixListener(path: path)
    #expect(throws: SocketPathTaken(path: path, reason: .live)) {
      try UnixListener(path: path)
    }
    let client = try UnixConnection.connect(to: path, timeout: .seconds(1))
    let accepted = try first.accept()
    #expect(accepted != nil, "the first listener still answers")
    client.close()
  }

  @Test func aFileThatIsNotASocketIsLeftAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/file"
    let descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .closeOnExec])
    try descriptor.close()
    #expect(throws: SocketPathTaken(path: path, reason: .notASocket(.regular))) {
      try UnixListener(path: path)
    }
    #expect(Self.mode(of: path).map { $0 & S_IFMT } == S_IFREG)
  }

  @Test func aLinkInTheWayIsLeftAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/control"
    let target = folder.path + "/target"
    try FileDescriptor.open(target, .writeOnly, options: [.create, .closeOnExec]).close()
    #expect(symlink(target, path) == 0)
    #expect(throws: SocketPathTaken(path: path, reason: .notASocket(.symbolicLink))) {
      try UnixListener(path: path)
    }
    #expect(Self.mode(of: target).map { $0 & S_IFMT } == S_IFREG)
  }

  @Test(.enabled(if: geteuid() == 0, "only root can give a socket file to another user"))
  func aStaleSocketOfAnotherUserIsLeftAlone() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/control"
    do {
      let stale = try UnixListener(path: path)
      // Closing removes the file: take it out of the way and back, so that it stays.
      #expect(rename(path, path + ".kept") == 0)
      stale.close()
      #expect(rename(path + ".kept", path) == 0)
    }
    #expect(chown(path, 65534, 65534) == 0)
    #expect(throws: SocketPathTaken(path: path, reason: .otherOwner(65534))) {
      try UnixListener(path: path)
    }
    #expect(Self.mode(of: path).map { $0 & S_IFMT } == S_IFSOCK)
  }

  @Test func aReplacedSocketFileIsNotRemoved() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/control"
    let old = try UnixListener(path: path)
    unlink(path)
    let new = try UnixListener(path: path)
    old.close()
    #expect(Self.mode(of: path) == S_IFSOCK | 0o660, "the new listener's file stays")
    new.close()
    #expect(Self.mode(of: path) == nil)
  }

  @Test func connectingNamesWhatIsWrong() throws {
    let folder = try TemporaryFolder()
    let missing = folder.path + "/control"
    #expect(throws: IOError(operation: "connect", path: missing, errno: .noSuchFileOrDirectory)) {
      try UnixConnection.connect(to: missing, timeout: .seconds(1))
    }
    let long = folder.path + "/" + String(repeating: "x", count: 120)
    #expect(throws: IOError(operation: "connect", path: long, errno: Errno(rawValue: ENAMETOOLONG)))
    {
      try UnixConnection.connect(to: long, timeout: .seconds(1))
    }
    #expect(throws: IOError(operation: "bind", path: long, errno: Errno(rawValue: ENAMETOOLONG))) {
      try UnixListener(path: long)
    }
  }

  @Test func connectingGivesUpWhenTheListenerTakesNoMore() throws {
    let folder = try TemporaryFolder()
    let listener = try UnixListener(path: folder.path + "/control", backlog: 1)
    var waiting: [UnixConnection] = []
    var error: IOError?
    while error == nil, waiting.count < 10 {
      do {
        waiting.append(try UnixConnection.connect(to: listener.path, timeout: .milliseconds(50)))
      } catch let caught as IOError {
        error = caught
      }
    }
    #expect(error == IOError(operation: "connect", path: listener.path, errno: .timedOut))
    #expect(waiting.count >= 1)
  }
}
