@preconcurrency import Glibc
import ScoreboardSettings
import TestExpectations
import TestSupport
import Testing

@testable import LinuxIO

@Suite struct SerialPortTests {
  /// A serial port on the slave of a pseudo-terminal; the master plays the device.
  final class PortOnPseudoTerminal {
    let master: FileDescriptor
    let port: SerialPort
    private var isMasterOpen = true

    init(_ settings: SerialSettings = SerialSettings()) throws {
      let pseudoTerminal = try PseudoTerminal.open()
      master = pseudoTerminal.master
      do {
        port = try SerialPort(path: pseudoTerminal.slavePath, settings: settings)
      } catch {
        try? master.close()
        throw error
      }
    }

    /// Closes the master, which hangs up the port.
    func closeMaster() throws {
      isMasterOpen = false
      try master.close()
    }

    deinit {
      port.close()
      if isMasterOpen {
        try? master.close()
      }
    }
  }

  /// A table row: settings and the termios values they must produce.
  struct AppliedSettings: Sendable, CustomTestStringConvertible {
    var settings: SerialSettings
    var speed: speed_t
    /// The expected `CSIZE`, `PARENB`, `PARODD`, `CSTOPB` and `CRTSCTS` bits.
    var framing: tcflag_t

    var testDescription: String {
      "\(settings.baudRate) \(settings.dataBits)\(settings.parity)\(settings.stopBits)"
        + " \(settings.flowControl)"
    }
  }

  /// Settings a pseudo-terminal applies. It keeps the speed, stop bits and flow control it
  /// is given, but Linux always sets its character size to 8 bits without parity.
  static let appliedSettings = [
    AppliedSettings(settings: SerialSettings(), speed: speed_t(B9600), framing: tcflag_t(CS8)),
    AppliedSettings(
      settings: SerialSettings(baudRate: 115_200, flowControl: .rtsCts), speed: speed_t(B115200),
      framing: tcflag_t(CS8) | tcflag_t(CRTSCTS)),
    AppliedSettings(
      settings: SerialSettings(baudRate: 1200, stopBits: 2), speed: speed_t(B1200),
      framing: tcflag_t(CS8 | CSTOPB)),
    AppliedSettings(
      settings: SerialSettings(baudRate: 1_000_000, stopBits: 2, flowControl: .rtsCts),
      speed: speed_t(B1000000), framing: tcflag_t(CS8 | CSTOPB) | tcflag_t(CRTSCTS)),
  ]

  /// Settings a pseudo-terminal does not apply, and what the error names.
  static let refusedSettings = [
    (
      SerialSettings(baudRate: 1200, dataBits: 7, parity: .even, stopBits: 2),
      "7 data bits, even parity"
    ),
    (SerialSettings(baudRate: 57_600, dataBits: 7, parity: .odd), "7 data bits, odd parity"),
    (SerialSettings(parity: .odd), "odd parity"),
    (SerialSettings(dataBits: 6), "6 data bits"),
    (SerialSettings(dataBits: 5, stopBits: 2), "5 data bits"),
  ]

  static let invalidSettings = [
    (
      SerialSettings(baudRate: 250_000),
      "baud rate 250000 cannot be set on Linux; supported: 1200, 1800, 2400, 4800, 9600, "
        + "19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000"
    ),
    (
      SerialSettings(baudRate: 14_400),
      "baud rate 14400 cannot be set on Linux; supported: 1200, 1800, 2400, 4800, 9600, "
        + "19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000"
    ),
    (
      SerialSettings(baudRate: 0),
      "baud rate 0 cannot be set on Linux; supported: 1200, 1800, 2400, 4800, 9600, "
        + "19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000"
    ),
    (SerialSettings(dataBits: 9), "data bits 9 cannot be set; supported: 5, 6, 7, 8"),
    (SerialSettings(stopBits: 3), "stop bits 3 cannot be set; supported: 1, 2"),
  ]

  /// Bytes a terminal in cooked mode would change or act on: CR, LF, Ctrl-C, XON, XOFF,
  /// DEL, and bytes with the high bit set.
  static let controlBytes: [UInt8] = [0x0D, 0x0A, 0x03, 0x11, 0x13, 0x7F, 0x80, 0xFF, 0x00, 0x76]

  /// Reads from the blocking `descriptor` until `count` bytes came, waiting up to 5 s for
  /// each chunk.
  func read(_ count: Int, from descriptor: FileDescriptor) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let loop = PollLoop()
    loop.watch(descriptor, for: .readable) { _ in
      let chunk = (try? buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }) ?? 0
      bytes += buffer[..<chunk]
    }
    while bytes.count < count, try loop.runOnce(timeout: .seconds(5)) > 0 {}
    return bytes
  }

  /// Reads from `port` until `count` bytes came, waiting up to 5 s for each chunk.
  func read(_ count: Int, from port: SerialPort) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var failure: (any Error)?
    let loop = PollLoop()
    loop.watch(port.fileDescriptor, for: .readable) { _ in
      do {
        let chunk = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        bytes += buffer[..<chunk]
      } catch {
        failure = error
      }
    }
    while bytes.count < count, failure == nil, try loop.runOnce(timeout: .seconds(5)) > 0 {}
    if let failure {
      throw failure
    }
    return bytes
  }

  func write(_ bytes: [UInt8], to port: SerialPort) throws -> Int {
    try bytes.withUnsafeBytes { try port.write($0) }
  }

  @Test(arguments: appliedSettings)
  func settingsAreApplied(_ expected: AppliedSettings) throws {
    let pair = try PortOnPseudoTerminal(expected.settings)
    #expect(pair.port.settings == expected.settings)
    var attributes = termios()
    try #require(tcgetattr(pair.port.fileDescriptor.rawValue, &attributes) == 0)

    #expect(attributes.c_lflag & tcflag_t(ICANON | ECHO | ECHONL | ISIG | IEXTEN) == 0)
    let inputProcessing = tcflag_t(
      IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF | IXANY)
    #expect(attributes.c_iflag & inputProcessing == 0)
    #expect(attributes.c_oflag & tcflag_t(OPOST) == 0)
    let controlCharacters = withUnsafeBytes(of: attributes.c_cc) { Array($0) }
    #expect(controlCharacters[Int(VMIN)] == 0)
    #expect(controlCharacters[Int(VTIME)] == 0)

    let framing = tcflag_t(CSIZE | PARENB | PARODD | CSTOPB) | tcflag_t(CRTSCTS)
    #expect(attributes.c_cflag & framing == expected.framing)
    #expect(attributes.c_cflag & tcflag_t(CLOCAL | CREAD) == tcflag_t(CLOCAL | CREAD))
    #expect(cfgetospeed(&attributes) == expected.speed)
  }

  @Test(arguments: refusedSettings)
  func settingsTheDriverKeepsThrowAndClose(_ settings: SerialSettings, _ refused: String) throws {
    let pseudoTerminal = try PseudoTerminal.open()
    defer { try? pseudoTerminal.master.close() }
    let error = expectError(SerialSettingsError.self) {
      try SerialPort(path: pseudoTerminal.slavePath, settings: settings)
    }
    #expect(
      error?.description
        == "tcsetattr \(pseudoTerminal.slavePath): the driver did not apply \(refused)")
    // The slave was closed again: with no slave open, the master reports a hang-up.
    var entry = pollfd(fd: pseudoTerminal.master.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 5000) == 1)
    #expect(entry.revents & Int16(POLLHUP) != 0)
  }

  @Test func descriptorIsNonBlockingAndCloseOnExec() throws {
    let pair = try PortOnPseudoTerminal()
    let descriptor = pair.port.fileDescriptor.rawValue
    #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0)
    #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
  }

  @Test func bytesTravelUnchangedBothWays() throws {
    let pair = try PortOnPseudoTerminal()
    var buffer = [UInt8](repeating: 0, count: 64)
    #expect(try buffer.withUnsafeMutableBytes { try pair.port.read(into: $0) } == 0)

    let bytes = Self.controlBytes
    #expect(try write(bytes, to: pair.port) == bytes.count)
    #expect(try read(bytes.count, from: pair.master) == bytes)

    try pair.master.writeAll(bytes)
    #expect(try read(bytes.count, from: pair.port) == bytes)
    #expect(try buffer.withUnsafeMutableBytes { try pair.port.read(into: $0) } == 0)
  }

  /// Another process's open of a port in use fails with EBUSY (TIOCEXCL). The flag does
  /// not stop a process with CAP_SYS_ADMIN, so as root the other open is made by a shell
  /// that `setpriv` runs as nobody, without capabilities.
  @Test func anotherOpenOfAPortInUseIsBusy() throws {
    let pair = try PortOnPseudoTerminal()
    guard geteuid() == 0 else {
      do {
        _ = try SerialPort(path: pair.port.path, settings: SerialSettings())
        Issue.record("a second open of \(pair.port.path) succeeded")
      } catch let error as IOError {
        #expect(error.errno == Errno(rawValue: EBUSY))
      }
      return
    }
    try #require(access("/usr/bin/setpriv", X_OK) == 0, "setpriv (util-linux) is missing")
    // The pseudo-terminal is root's: let everyone open it, so that only the flag refuses.
    #expect(chmod(pair.port.path, 0o666) == 0)
    let (status, errors) = try Self.run(
      [
        "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        "--inh-caps=-all", "--bounding-set=-all", "--", "/bin/sh", "-c", #"exec 3<>"$1""#,
        "sh", pair.port.path,
      ])
    #expect(status != 0, "the unprivileged open succeeded")
    #expect(errors.contains("busy"), "\(errors)")
  }

  /// Runs `arguments` and waits for it: its exit status and what it wrote to standard
  /// error.
  static func run(_ arguments: [String]) throws -> (CInt, String) {
    let child = try ChildProcess(executable: arguments[0], arguments: Array(arguments.dropFirst()))
    let result = child.finish()
    child.end(reaped: true)
    return (result.status, result.errors)
  }

  @Test(arguments: invalidSettings)
  func invalidSettingsThrowWhatIsSupported(_ settings: SerialSettings, _ message: String) throws {
    let pseudoTerminal = try PseudoTerminal.open()
    defer { try? pseudoTerminal.master.close() }
    let error = expectError(SerialSettingsError.self) {
      try SerialPort(path: pseudoTerminal.slavePath, settings: settings)
    }
    #expect(error?.description == message)
  }

  @Test func invalidSettingsAreReportedBeforeThePathIsOpened() {
    #expect(throws: SerialSettingsError.unsupportedBaudRate(14_400)) {
      try SerialPort(path: "/nonexistent/ttyUSB0", settings: SerialSettings(baudRate: 14_400))
    }
  }

  @Test func missingPathThrowsNoSuchFile() {
    let error = expectError(IOError.self) {
      try SerialPort(path: "/nonexistent/ttyUSB0", settings: SerialSettings())
    }
    #expect(error?.operation == "open")
    #expect(error?.errno == .noSuchFileOrDirectory)
    #expect(error?.description.contains("/nonexistent/ttyUSB0") == true)
    #expect(error?.description.contains("ENOENT") == true)
  }

  @Test func aFileThatIsNoTerminalThrowsNotATerminal() {
    let error = expectError(IOError.self) {
      try SerialPort(path: "/dev/null", settings: SerialSettings())
    }
    #expect(error?.errno == .notTerminal)
    #expect(error?.path == "/dev/null")
  }

  @Test func hangUpMakesWritesAndReadsThrow() throws {
    let pair = try PortOnPseudoTerminal()
    try pair.closeMaster()

    let writeError = expectError(IOError.self) { try write([0x76], to: pair.port) }
    #expect(writeError?.errno == .ioError)
    #expect(writeError?.operation == "write")
    #expect(writeError?.path == pair.port.path)

    var buffer = [UInt8](repeating: 0, count: 16)
    let readError = expectError(IOError.self) {
      try buffer.withUnsafeMutableBytes { try pair.port.read(into: $0) }
    }
    #expect(readError?.errno == .ioError)
    #expect(!pair.port.drain(timeout: 0))
  }

  @Test func drainReturnsOnceTheMasterReadEverything() throws {
    let pair = try PortOnPseudoTerminal(SerialSettings(baudRate: 115_200))
    let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    #expect(try write(bytes, to: pair.port) == bytes.count)
    #expect(try read(bytes.count, from: pair.master) == bytes)
    #expect(pair.port.drain(timeout: 1_000_000_000))
    #expect(pair.port.outputQueueCount() == 0)
  }

  @Test func closeReleasesTheDeviceAndCanBeRepeated() throws {
    let pair = try PortOnPseudoTerminal()
    pair.port.close()
    pair.port.close()
    // With no slave descriptor left open, the master reports a hang-up.
    var entry = pollfd(fd: pair.master.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&entry, 1, 5000) == 1)
    #expect(entry.revents & Int16(POLLHUP) != 0)
  }

  @Test func wireTimeOf8N1At9600Baud() {
    let settings = SerialSettings()
    #expect(settings.bitsPerCharacter == 10)
    #expect(settings.wireTime(forBytes: 96) == 100_000_000)
    #expect(settings.wireTime(forBytes: 0) == 0)
  }

  @Test func wireTimeCountsParityAndStopBitsAndRoundsUp() {
    let settings = SerialSettings(dataBits: 7, parity: .even, stopBits: 2)
    #expect(settings.bitsPerCharacter == 11)
    // 11 bits at 9600 baud: 1 145 833.3 ns.
    #expect(settings.wireTime(forBytes: 1) == 1_145_834)
    #expect(settings.wireTime(forBytes: 96) == 110_000_000)
  }

  @Test func wireTimeOfALargeCountDoesNotOverflow() {
    let settings = SerialSettings(baudRate: 1200)
    // 21 474 836 470 bits: times 10^9 that would overflow Int64.
    #expect(settings.wireTime(forBytes: Int(Int32.max)) == 17_895_697_058_333_334)
  }

  @Test func supportedBaudRatesAreTheTermiosConstants() {
    // Every rate the configuration accepts has a termios constant, and no other has.
    #expect(SerialSettings.speeds.keys.sorted() == SerialSettings.supportedBaudRates)
    #expect(
      SerialSettings.supportedBaudRates == [
        1200, 1800, 2400, 4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800,
        500_000, 576_000, 921_600, 1_000_000,
      ])
  }
}
