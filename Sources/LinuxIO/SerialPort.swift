@preconcurrency import Glibc
import ScoreboardSettings

/// An open serial port (a UART, USB adapter or pseudo-terminal) in raw mode.
///
/// The port owns its descriptor: `close()` or deinitialization closes it. The
/// descriptor is non-blocking and close-on-exec, and the port holds it in exclusive
/// mode (`TIOCEXCL`), so another open of the device by a process without
/// `CAP_SYS_ADMIN` fails with `EBUSY`. Bytes pass unchanged in both directions: no line
/// editing, echo, signals, newline translation or software flow control.
public final class SerialPort {
  /// The device, such as `/dev/ttyUSB0`.
  public let path: String
  /// The line settings, all of which the driver applied (checked when the port opened).
  public let settings: SerialSettings
  /// The descriptor: non-blocking and close-on-exec, owned by the port. Use it to watch
  /// the port in a `PollLoop`; do not close it.
  public let fileDescriptor: FileDescriptor
  private var isClosed = false

  /// The `c_cflag` bits that encode the character framing and hardware flow control.
  private static let framingFlags =
    tcflag_t(CSIZE | PARENB | PARODD | CMSPAR | CSTOPB)
    | tcflag_t(CRTSCTS)

  /// Opens `path` as a serial port with `settings`.
  ///
  /// Opens the device (`O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC`), takes exclusive use
  /// (`TIOCEXCL`), sets raw mode (`cfmakeraw`) with the settings, `CLOCAL | CREAD`,
  /// `VMIN` 0 and `VTIME` 0, reads the settings back to check that the driver applied
  /// them, and discards stale input and output (`tcflush` with `TCIOFLUSH`). Nothing is
  /// opened when the settings are invalid.
  ///
  /// - Throws: `SerialSettingsError` when Linux cannot set a value (checked before the
  ///   device is opened) or the driver did not apply one. `IOError` naming the failed
  ///   call and the path for a system error, such as
  ///   `open /dev/ttyUSB0: No such file or directory (ENOENT)`.
  public init(path: String, settings: SerialSettings) throws {
    let speed = try settings.checkedSpeed()
    let descriptor = try FileDescriptor.open(
      path, .readWrite, options: [.closeOnExec, .nonBlocking, .noControllingTerminal])
    do {
      try Self.configure(descriptor, path: path, settings: settings, speed: speed)
    } catch {
      try? descriptor.close()
      throw error
    }
    self.path = path
    self.settings = settings
    self.fileDescriptor = descriptor
  }

  deinit {
    close()
  }

  /// Writes up to `bytes.count` bytes without waiting.
  ///
  /// - Returns: The number of bytes written, which may be fewer than given; 0 when the
  ///   port's output buffer is full.
  /// - Throws: `IOError` naming `write` and the path, such as `EIO` after a hang-up
  ///   (the device went away) or `ENXIO`/`ENODEV`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws -> Int {
    guard !bytes.isEmpty else { return 0 }
    #if STAGE_TIMES
      StageTimes.mark(.writeStarted)
      defer { StageTimes.mark(.writeEnded) }
    #endif
    do {
      return try retryOnInterrupt("write", path: path) {
        SystemCall.write(fileDescriptor.rawValue, bytes.baseAddress, bytes.count)
      }
    } catch let error as IOError where error.errno == .wouldBlock {
      return 0
    }
  }

  /// Reads the bytes available, up to `buffer.count`, without waiting.
  ///
  /// - Returns: The number of bytes read; 0 when nothing is available.
  /// - Throws: `IOError` naming `read` and the path; its errno is `.ioError` (`EIO`)
  ///   after a hang-up, when the device went away or a pseudo-terminal's master was
  ///   closed.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard !buffer.isEmpty else { return 0 }
    let count: Int
    do {
      count = try retryOnInterrupt("read", path: path) {
        SystemCall.read(fileDescriptor.rawValue, buffer.baseAddress, buffer.count)
      }
    } catch let error as IOError where error.errno == .wouldBlock {
      return 0
    }
    // With VMIN and VTIME 0 a terminal reports an empty buffer as end of file, and so
    // does a hung-up one: only poll tells them apart.
    if count == 0, try isHungUp() {
      throw IOError(operation: "read", path: path, errno: .ioError)
    }
    return count
  }

  /// The number of bytes still queued in the kernel for output (`TIOCOUTQ`), or nil if
  /// the driver cannot tell (or the device went away).
  public func outputQueueCount() -> Int? {
    var count: CInt = 0
    guard SystemCall.ioctl(fileDescriptor.rawValue, UInt(TIOCOUTQ), &count) == 0 else {
      return nil
    }
    return Int(count)
  }

  /// Waits until the output queued in the kernel has been sent, or `timeout`
  /// nanoseconds have passed, for instance to let the last frame out at shutdown.
  ///
  /// Never waits longer than `timeout`, unlike `tcdrain`, which waits as long as flow
  /// control holds the line. Bytes in a UART's hardware FIFO are not counted.
  ///
  /// - Returns: true once nothing is queued; false on timeout, after a hang-up, or when
  ///   the driver cannot report its queue.
  public func drain(timeout: Int64) -> Bool {
    let now = MonotonicClock.now()
    let (sum, overflow) = now.addingReportingOverflow(max(timeout, 0))
    let deadline = overflow ? Int64.max : sum
    while true {
      guard let queued = outputQueueCount() else { return false }
      if queued == 0 {
        return true
      }
      let remaining = deadline - MonotonicClock.now()
      if remaining <= 0 {
        return false
      }
      // POLLOUT means room in the output buffer, not an empty one, so waiting for it would
      // spin while the last bytes go out. Sleep for the wire time of what is queued
      // instead; poll wakes up early on a hang-up or error, which it always reports.
      let wait = min(remaining, settings.wireTime(forBytes: queued))
      var entry = pollfd(fd: fileDescriptor.rawValue, events: 0, revents: 0)
      var limit = PollLoop.timespecRoundedUp(.nanoseconds(wait))
      if SystemCall.ppoll(&entry, 1, &limit) > 0 {
        return false
      }
    }
  }

  /// Closes the descriptor; later calls do nothing. An error that `close` reports (a late
  /// write error of the device) is dropped, as the descriptor is closed either way.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    try? fileDescriptor.close()
  }

  /// Whether the line was hung up (`POLLHUP`).
  private func isHungUp() throws -> Bool {
    var entry = pollfd(fd: fileDescriptor.rawValue, events: 0, revents: 0)
    _ = try retryOnInterrupt("poll", path: path) { SystemCall.poll(&entry, 1, 0) }
    return entry.revents & Int16(POLLHUP) != 0
  }

  /// Takes exclusive use of the open device, applies the settings in raw mode, checks
  /// that they took, and flushes stale bytes.
  private static func configure(
    _ descriptor: FileDescriptor, path: String, settings: SerialSettings, speed: speed_t
  ) throws {
    let fd = descriptor.rawValue
    _ = try retryOnInterrupt("ioctl TIOCEXCL", path: path) {
      SystemCall.ioctl(fd, UInt(TIOCEXCL))
    }

    var attributes = termios()
    _ = try retryOnInterrupt("tcgetattr", path: path) { SystemCall.tcgetattr(fd, &attributes) }
    cfmakeraw(&attributes)
    // cfmakeraw leaves the sending of XOFF/XON (IXOFF) on.
    attributes.c_iflag &= ~tcflag_t(IXOFF | IXANY)
    attributes.c_cflag &= ~framingFlags
    attributes.c_cflag |= controlFlags(settings) | tcflag_t(CLOCAL | CREAD)
    withUnsafeMutableBytes(of: &attributes.c_cc) { characters in
      characters[Int(VMIN)] = 0
      characters[Int(VTIME)] = 0
    }
    _ = try retryOnInterrupt("cfsetospeed", path: path) { cfsetospeed(&attributes, speed) }
    _ = try retryOnInterrupt("cfsetispeed", path: path) { cfsetispeed(&attributes, speed) }
    _ = try retryOnInterrupt("tcsetattr", path: path) {
      SystemCall.tcsetattr(fd, TCSANOW, &attributes)
    }

    // tcsetattr succeeds when the driver applied any of the settings; it keeps the
    // values it cannot set.
    var applied = termios()
    _ = try retryOnInterrupt("tcgetattr", path: path) { SystemCall.tcgetattr(fd, &applied) }
    let refused = refusedSettings(settings, speed: speed, applied: applied)
    guard refused.isEmpty else {
      throw SerialSettingsError.refusedByDriver(path: path, refused: refused)
    }

    _ = try retryOnInterrupt("tcflush", path: path) { SystemCall.tcflush(fd, TCIOFLUSH) }
  }

  /// The `c_cflag` framing and flow control bits of `settings`.
  private static func controlFlags(_ settings: SerialSettings) -> tcflag_t {
    var flags: tcflag_t
    switch settings.dataBits {
    case 5: flags = tcflag_t(CS5)
    case 6: flags = tcflag_t(CS6)
    case 7: flags = tcflag_t(CS7)
    case 8: flags = tcflag_t(CS8)
    default: preconditionFailure("data bits \(settings.dataBits) passed the settings check")
    }
    switch settings.parity {
    case .none: break
    case .even: flags |= tcflag_t(PARENB)
    case .odd: flags |= tcflag_t(PARENB | PARODD)
    }
    if settings.stopBits == 2 {
      flags |= tcflag_t(CSTOPB)
    }
    if settings.flowControl == .rtsCts {
      flags |= tcflag_t(CRTSCTS)
    }
    return flags
  }

  /// The settings, in words, that the `applied` attributes do not carry.
  private static func refusedSettings(
    _ settings: SerialSettings, speed: speed_t, applied: termios
  ) -> [String] {
    var applied = applied
    let requestedFlags = controlFlags(settings)
    func differ(_ mask: tcflag_t) -> Bool {
      applied.c_cflag & mask != requestedFlags & mask
    }
    var refused: [String] = []
    if cfgetospeed(&applied) != speed {
      refused.append("baud rate \(settings.baudRate)")
    }
    if differ(tcflag_t(CSIZE)) {
      refused.append("\(settings.dataBits) data bits")
    }
    if differ(tcflag_t(PARENB | PARODD | CMSPAR)) {
      refused.append(settings.parity == .none ? "no parity" : "\(settings.parity) parity")
    }
    if differ(tcflag_t(CSTOPB)) {
      refused.append(settings.stopBits == 1 ? "1 stop bit" : "\(settings.stopBits) stop bits")
    }
    if differ(tcflag_t(CRTSCTS)) {
      refused.append(settings.flowControl == .none ? "no flow control" : "RTS/CTS flow control")
    }
    return refused
  }
}
