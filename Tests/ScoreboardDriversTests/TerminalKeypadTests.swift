@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import TestExpectations
import Testing

@Suite struct TerminalKeypadTests {
  /// Waits for `keypad` to be readable and collects its events until `count` came.
  func events(_ count: Int, from keypad: some Keypad, at time: Instant) throws -> [KeyEvent] {
    let loop = PollLoop()
    var events: [KeyEvent] = []
    var failure: (any Error)?
    loop.watch(try #require(keypad.waitingFor.descriptor), for: .readable) { _ in
      do {
        events += try keypad.readEvents(at: time)
      } catch {
        failure = error
      }
    }
    while events.count < count, failure == nil, try loop.runOnce(timeout: .seconds(5)) > 0 {}
    if let failure {
      throw failure
    }
    return events
  }

  func attributes(of descriptor: FileDescriptor) throws -> termios {
    var attributes = termios()
    try #require(tcgetattr(descriptor.rawValue, &attributes) == 0)
    return attributes
  }

  @Test func readsKeysFromAPseudoTerminalAndRestoresItOnClose() throws {
    let pseudoTerminal = try PseudoTerminal.open()
    defer { try? pseudoTerminal.master.close() }
    // A second descriptor on the slave, to look at its settings from outside.
    let observer = try FileDescriptor.open(
      pseudoTerminal.slavePath, .readOnly, options: [.closeOnExec, .noControllingTerminal])
    defer { try? observer.close() }
    let original = try attributes(of: observer)

    let keypad = try TerminalKeypad(name: "console", device: pseudoTerminal.slavePath)
    let keypadMode = try attributes(of: observer)
    #expect(keypadMode.c_lflag & tcflag_t(ICANON | ECHO) == 0)
    #expect(keypadMode.c_lflag & tcflag_t(ISIG) != 0)

    try pseudoTerminal.master.writeAll("12\r\u{1B}[A\u{1B}[3~+")
    let time = Instant.milliseconds(1_500)
    let events = try events(6, from: keypad, at: time)
    #expect(
      events.map(\.key.description) == [
        "KEY_1", "KEY_2", "KEY_ENTER", "KEY_UP", "KEY_DELETE", "KEY_KPPLUS",
      ])
    #expect(events.allSatisfy { $0.keypad == "console" && $0.kind == .press && $0.time == time })

    keypad.close()
    keypad.close()
    let restored = try attributes(of: observer)
    #expect(restored.c_lflag == original.c_lflag)
    #expect(restored.c_iflag == original.c_iflag)
    #expect(
      withUnsafeBytes(of: restored.c_cc) { Array($0) }
        == withUnsafeBytes(of: original.c_cc) { Array($0) })
  }

  @Test func readsKeysFromAPipeAndReportsItsEnd() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    let keypad = try TerminalKeypad(name: "script", device: "/dev/fd/\(readEnd.rawValue)")
    defer { keypad.close() }

    try writeEnd.writeAll("7\n")
    let events = try events(2, from: keypad, at: .zero)
    #expect(events.map(\.key) == [Key("KEY_7")!, Key("KEY_ENTER")!])
    #expect(try keypad.readEvents(at: .zero) == [])

    try writeEnd.close()
    // A process another test is starting may hold a copy of the write end for a moment
    // (between its fork and its exec, which closes it): until then the pipe has not ended.
    #expect(throws: EndOfInput(keypad: "script")) {
      for _ in 0..<500 where try keypad.readEvents(at: .zero).isEmpty {
        usleep(10_000)  // between two reads, which alone end the wait
      }
    }
  }

  @Test func missingDeviceNamesThePath() {
    let error = expectError(IOError.self) {
      try TerminalKeypad(name: "numpad", device: "/dev/nonexistent-keypad")
    }
    #expect(
      error?.description == "open /dev/nonexistent-keypad: No such file or directory (ENOENT)")
  }
}
