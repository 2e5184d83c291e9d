@preconcurrency import Glibc
import LinuxIO
import TestExpectations
import Testing

@Suite struct TerminalTests {
  /// A pseudo-terminal with its slave open (read-write, non-blocking, no controlling
  /// terminal).
  final class OpenPair {
    let pseudoTerminal: PseudoTerminal
    let slave: FileDescriptor

    init() throws {
      pseudoTerminal = try PseudoTerminal.open()
      slave = try FileDescriptor.open(
        pseudoTerminal.slavePath, .readWrite,
        options: [.closeOnExec, .nonBlocking, .noControllingTerminal])
    }

    deinit {
      try? slave.close()
      try? pseudoTerminal.master.close()
    }
  }

  /// Reads from `descriptor` until `count` bytes came, waiting up to 5 s for each chunk.
  func read(_ count: Int, from descriptor: FileDescriptor) throws -> [UInt8] {
    let loop = PollLoop()
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    loop.watch(descriptor, for: .readable) { _ in
      let chunk = (try? buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }) ?? 0
      bytes += buffer[..<chunk]
    }
    while bytes.count < count, try loop.runOnce(timeout: .seconds(5)) > 0 {}
    return bytes
  }

  func attributes(of descriptor: FileDescriptor) throws -> termios {
    var attributes = termios()
    try #require(tcgetattr(descriptor.rawValue, &attributes) == 0)
    return attributes
  }

  func controlCharacters(_ attributes: termios) -> [cc_t] {
    withUnsafeBytes(of: attributes.c_cc) { Array($0) }
  }

  @Test func bytesTravelBothWays() throws {
    let pair = try OpenPair()
    #expect(pair.pseudoTerminal.slavePath.hasPrefix("/dev/pts/"))
    #expect(pair.slave.isTerminal)

    try pair.pseudoTerminal.master.writeAll("12\n")
    #expect(try read(3, from: pair.slave) == Array("12\n".utf8))

    try pair.slave.writeAll("ok\n")
    // The terminal echoed the input; output processing turns newlines into CR LF.
    #expect(try read(8, from: pair.pseudoTerminal.master) == Array("12\r\nok\r\n".utf8))
  }

  @Test func keypadModeSetsTheFlagsAndRestoreTakesThemBack() throws {
    let pair = try OpenPair()
    let original = try attributes(of: pair.slave)

    let mode = try TerminalMode(keypadInputOn: pair.slave)
    let keypad = try attributes(of: pair.slave)
    #expect(keypad.c_lflag & tcflag_t(ICANON) == 0)
    #expect(keypad.c_lflag & tcflag_t(ECHO) == 0)
    #expect(keypad.c_lflag & tcflag_t(ISIG) != 0)
    #expect(keypad.c_iflag & tcflag_t(IXON) == 0)
    #expect(keypad.c_iflag & tcflag_t(ICRNL) == 0)
    #expect(keypad.c_oflag & tcflag_t(OPOST) != 0)
    let characters = controlCharacters(keypad)
    #expect(characters[Int(VMIN)] == 1)
    #expect(characters[Int(VTIME)] == 0)
    #expect(characters[Int(VSUSP)] == 0)
    #expect(characters[Int(VQUIT)] == 0)
    #expect(characters[Int(VINTR)] == controlCharacters(original)[Int(VINTR)])

    try mode.restore()
    try mode.restore()
    let restored = try attributes(of: pair.slave)
    #expect(restored.c_iflag == original.c_iflag)
    #expect(restored.c_oflag == original.c_oflag)
    #expect(restored.c_cflag == original.c_cflag)
    #expect(restored.c_lflag == original.c_lflag)
    #expect(controlCharacters(restored) == controlCharacters(original))
  }

  @Test func keypadModeDeliversBytesAtOnce() throws {
    let pair = try OpenPair()
    let mode = try TerminalMode(keypadInputOn: pair.slave)
    defer { try? mode.restore() }
    // No line editing: the bytes arrive without a newline, and CR stays CR.
    try pair.pseudoTerminal.master.writeAll("7\r")
    #expect(try read(2, from: pair.slave) == Array("7\r".utf8))
  }

  @Test func keypadModeOnAPipeThrowsNotATerminal() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    let error = expectError(IOError.self) { try TerminalMode(keypadInputOn: readEnd) }
    #expect(error?.errno == .notTerminal)
    #expect(error?.operation == "tcgetattr")
  }
}
