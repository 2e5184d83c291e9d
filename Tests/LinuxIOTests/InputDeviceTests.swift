@preconcurrency import Glibc
import LinuxIO
import TestExpectations
import TestSupport
import Testing

/// `InputDevice` on FIFOs carrying real `input_event` records: the same reads as a
/// device; its ioctls fail as they do on anything that is not an input device.
@Suite struct InputDeviceTests {
  static let press = InputEvent(timestamp: 1_000_000_000, type: .key, code: 79, value: 1)
  static let report = InputEvent(
    timestamp: 1_000_000_000, type: .synchronization, code: InputEvent.report, value: 0)
  static let release = InputEvent(timestamp: 1_100_000_000, type: .key, code: 79, value: 0)

  /// The records one read hands over, in order; nil at the end of the input.
  static func read(_ device: InputDevice) throws -> [InputEvent]? {
    var events: [InputEvent] = []
    return try device.readEvents { events.append($0) } ? events : nil
  }

  @Test func readsWholeRecordsAndReportsTheEndOfInput() throws {
    let folder = try TemporaryFolder()
    let path = try folder.makeFIFO("event3")
    let device = try InputDevice(path: path, writable: false)
    #expect(fcntl(device.fileDescriptor.rawValue, F_GETFL) & O_NONBLOCK != 0)
    #expect(fcntl(device.fileDescriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    let writer = try FileDescriptor.open(path, .writeOnly)

    #expect(try Self.read(device) == [])
    try writer.writeAll(InputEvent.records([Self.press, Self.report]))
    #expect(try Self.read(device) == [Self.press, Self.report])

    try writer.close()
    // A child a test beside this one spawns holds a copy of every descriptor until its
    // exec: the end of input comes once no writer is left.
    var entry = pollfd(fd: device.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 5_000) == 1 && entry.revents & Int16(POLLHUP) != 0)
    #expect(try Self.read(device) == nil)
    device.close()
    device.close()
  }

  /// Each read hands over its own records, in order, and none of an earlier read.
  @Test func eachReadHandsOverItsOwnRecordsInOrder() throws {
    let folder = try TemporaryFolder()
    let path = try folder.makeFIFO("event3")
    let device = try InputDevice(path: path, writable: false)
    let writer = try FileDescriptor.open(path, .writeOnly)
    defer { try? writer.close() }

    try writer.writeAll(InputEvent.records([Self.press, Self.report]))
    let first = try Self.read(device)
    try writer.writeAll(InputEvent.records([Self.release]))
    let second = try Self.read(device)
    try writer.writeAll(InputEvent.records([Self.report, Self.press, Self.report]))
    let third = try Self.read(device)

    #expect(first == [Self.press, Self.report])
    #expect(second == [Self.release])
    #expect(third == [Self.report, Self.press, Self.report])
  }

  @Test func recordSplitAcrossTwoWritesIsCompletedByTheNextRead() throws {
    let folder = try TemporaryFolder()
    let path = try folder.makeFIFO("event3")
    let device = try InputDevice(path: path, writable: false)
    let writer = try FileDescriptor.open(path, .writeOnly)
    defer { try? writer.close() }

    let bytes = InputEvent.records([Self.press, Self.release])
    let cut = InputEvent.recordSize + 5
    try writer.writeAll(bytes[..<cut])
    #expect(try Self.read(device) == [Self.press])
    try writer.writeAll(bytes[cut...])
    #expect(try Self.read(device) == [Self.release])
  }

  @Test func ioctlsOnAFIFOFailNamingThePath() throws {
    let folder = try TemporaryFolder()
    let path = try folder.makeFIFO("event3")
    let device = try InputDevice(path: path, writable: false)
    let notInputDevice = Errno(rawValue: ENOTTY)
    #expect(throws: IOError(operation: "EVIOCGRAB", path: path, errno: notInputDevice)) {
      try device.grab()
    }
    #expect(throws: IOError(operation: "EVIOCGNAME", path: path, errno: notInputDevice)) {
      try device.name()
    }
    #expect(throws: IOError(operation: "EVIOCGKEY", path: path, errno: notInputDevice)) {
      try device.pressedKeys()
    }
    #expect(throws: IOError(operation: "EVIOCSCLOCKID", path: path, errno: notInputDevice)) {
      try device.useMonotonicClock()
    }
  }

  @Test func setLEDWritesAnLEDEventAndAReport() throws {
    let folder = try TemporaryFolder()
    let path = try folder.makeFIFO("event3")
    // The other end, opened first: it reads what the device writes.
    let observer = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking])
    defer { try? observer.close() }
    let device = try InputDevice(path: path, writable: true)
    #expect(device.writeError == nil)

    try device.setLED(InputEvent.numLockLED, on: true)
    var bytes = [UInt8](repeating: 0, count: 4 * InputEvent.recordSize)
    let count = try bytes.withUnsafeMutableBytes { try observer.read(into: $0) }
    #expect(
      Array(bytes[..<count])
        == InputEvent.records([
          InputEvent(type: .led, code: InputEvent.numLockLED, value: 1),
          InputEvent(type: .synchronization, code: InputEvent.report, value: 0),
        ]))
  }

  @Test func readOnlyDeviceCannotSetLEDs() throws {
    let folder = try TemporaryFolder()
    let path = try folder.makeFIFO("event3")
    let device = try InputDevice(path: path, writable: false)
    #expect(throws: IOError(operation: "write", path: path, errno: .badFileDescriptor)) {
      try device.setLED(InputEvent.numLockLED, on: true)
    }
  }

  @Test func missingDeviceNamesThePath() {
    #expect(
      throws: IOError(
        operation: "open", path: "/dev/input/nonexistent", errno: .noSuchFileOrDirectory)
    ) {
      try InputDevice(path: "/dev/input/nonexistent", writable: false)
    }
  }

  @Test func permissionHintFollowsTheError() {
    let error = IOError(
      operation: "open", path: "/dev/input/event3", errno: .permissionDenied,
      hint: InputDevice.permissionHint)
    #expect(
      error.description
        == "open /dev/input/event3: Permission denied (EACCES); add the user running "
        + "scoreboardd to the 'input' group")
  }

  @Test(.enabled(if: geteuid() != 0, "root opens any file"))
  func permissionErrorsNameTheInputGroup() throws {
    let folder = try TemporaryFolder()
    let path = try folder.makeFIFO("event3")
    chmod(path, 0o400)
    let readOnly = try InputDevice(path: path, writable: true)
    #expect(readOnly.writeError == .permissionDenied)
    readOnly.close()

    chmod(path, 0)
    let error = expectError(IOError.self) { try InputDevice(path: path, writable: false) }
    #expect(
      error?.description
        == "open \(path): \(Errno.permissionDenied); add the user running scoreboardd to the "
        + "'input' group")
  }
}
