import CScoreboardLinux
@preconcurrency import Glibc

/// An open Linux input device (`/dev/input/event3`, or a `/dev/input/by-id` link to one),
/// read as whole `InputEvent` records.
///
/// The descriptor is non-blocking and close-on-exec, owned by the device and closed by
/// `close()` or when the device is released. A FIFO or pipe carrying records reads the
/// same way; its ioctls fail with `ENOTTY`.
public final class InputDevice {
  /// The path opened.
  public let path: String
  /// The device's descriptor, owned by the device: watch it for `.readable`.
  public let fileDescriptor: FileDescriptor
  /// Why the device is read-only, when it is: the error of opening it for writing
  /// (`EACCES`), or `EBADF` when it was not asked to be writable. `setLED(_:on:)` then
  /// fails with it.
  public let writeError: Errno?
  /// Where reads land: the bytes of a record cut short by the previous read, then room
  /// for 64 records.
  private var buffer = [UInt8](repeating: 0, count: 65 * InputEvent.recordSize)
  /// How many bytes at the start of `buffer` begin a record the next read completes.
  private var partialCount = 0
  private var isClosed = false

  /// The hint of a permission error on an input device.
  public static let permissionHint = "add the user running scoreboardd to the 'input' group"

  /// Opens `path` non-blocking and close-on-exec: read-write when `writable` (for LEDs)
  /// and allowed, read-only otherwise.
  ///
  /// - Throws: `IOError` naming `open` and the path; a permission error carries the hint
  ///   to add the user to the `input` group.
  public init(path: String, writable: Bool) throws {
    self.path = path
    let options: FileDescriptor.OpenOptions = [.closeOnExec, .nonBlocking]
    var writeError: Errno?
    var descriptor: FileDescriptor?
    if writable {
      do {
        descriptor = try FileDescriptor.open(path, .readWrite, options: options)
      } catch let error as IOError
        where [.permissionDenied, .notPermitted, .readOnlyFileSystem].contains(error.errno)
      {
        writeError = error.errno
      }
    } else {
      writeError = .badFileDescriptor
    }
    do {
      fileDescriptor = try descriptor ?? FileDescriptor.open(path, .readOnly, options: options)
    } catch var error as IOError {
      if error.errno == .permissionDenied {
        error.hint = Self.permissionHint
      }
      throw error
    }
    self.writeError = writeError
  }

  deinit {
    close()
  }

  /// Takes (`true`) or gives back exclusive delivery of the device's events (EVIOCGRAB):
  /// while grabbed, no other reader, such as the console, gets them.
  ///
  /// - Throws: `IOError` naming `EVIOCGRAB` and the path (`EBUSY` when another program
  ///   holds the grab).
  public func grab(_ grab: Bool = true) throws {
    _ = try ioctl("EVIOCGRAB") { SystemCall.evdevGrab($0, grab) }
  }

  /// The device's name (EVIOCGNAME), such as `SIGMACHIP USB Keyboard`.
  ///
  /// - Throws: `IOError` naming `EVIOCGNAME` and the path.
  public func name() throws -> String {
    try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
      _ = try ioctl("EVIOCGNAME") { SystemCall.evdevName($0, buffer.baseAddress, buffer.count) }
      return String(cString: buffer.baseAddress!)
    }
  }

  /// The codes of the keys down now (EVIOCGKEY).
  ///
  /// - Throws: `IOError` naming `EVIOCGKEY` and the path.
  public func pressedKeys() throws -> Set<UInt16> {
    try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: Int(KEY_CNT)) { codes in
      let count = try ioctl("EVIOCGKEY") {
        SystemCall.evdevPressedKeys($0, codes.baseAddress, codes.count)
      }
      return Set(codes[..<Int(count)])
    }
  }

  /// Makes the device stamp its events with `CLOCK_MONOTONIC` (EVIOCSCLOCKID), the clock
  /// of `MonotonicClock`, instead of the wall clock.
  ///
  /// - Throws: `IOError` naming `EVIOCSCLOCKID` and the path.
  public func useMonotonicClock() throws {
    _ = try ioctl("EVIOCSCLOCKID") { SystemCall.evdevSetClock($0, CLOCK_MONOTONIC) }
  }

  /// Switches an LED of the device (`InputEvent.numLockLED`) on or off: writes an `EV_LED`
  /// event and a `SYN_REPORT`.
  ///
  /// - Throws: `IOError` naming `write` and the path; its errno is `writeError` when the
  ///   device was opened read-only.
  public func setLED(_ led: UInt16, on: Bool) throws {
    precondition(!isClosed, "setLED(_:on:) after close()")
    if let writeError {
      throw IOError(operation: "write", path: path, errno: writeError)
    }
    let records = InputEvent.records([
      InputEvent(type: .led, code: led, value: on ? 1 : 0),
      InputEvent(type: .synchronization, code: InputEvent.report, value: 0),
    ])
    do {
      try fileDescriptor.writeAll(records)
    } catch var error as IOError {
      error.path = path
      throw error
    }
  }

  /// Reads the records waiting, without blocking, and calls `body` with each whole record
  /// in turn, decoded where it was read: nothing is gathered into an array.
  ///
  /// A record cut short by a read (possible on a pipe, never on a device) is kept and
  /// completed by the next read.
  ///
  /// - Returns: False at the end of the input (the writer of a FIFO closed it; a device
  ///   never ends this way); true otherwise, also when no record was waiting.
  /// - Throws: `IOError` naming `read` and the path; its errno is `.noSuchDevice` when
  ///   the device was unplugged.
  public func readEvents(_ body: (InputEvent) -> Void) throws -> Bool {
    precondition(!isClosed, "readEvents(_:) after close()")
    let recordSize = InputEvent.recordSize
    let kept = partialCount
    let count: Int
    #if STAGE_TIMES
      StageTimes.mark(.readStarted)
    #endif
    do {
      count = try buffer.withUnsafeMutableBytes { bytes in
        try fileDescriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[kept...]))
      }
    } catch var error as IOError {
      guard error.errno != .wouldBlock else { return true }
      error.path = path
      throw error
    }
    #if STAGE_TIMES
      StageTimes.mark(.readEnded)
    #endif
    guard count > 0 else { return false }
    let available = kept + count
    let wholeCount = available / recordSize
    partialCount = available - wholeCount * recordSize
    buffer.withUnsafeMutableBytes { bytes in
      for index in 0..<wholeCount {
        body(InputEvent(record: UnsafeRawPointer(bytes.baseAddress! + index * recordSize)))
      }
      // The start of a record the next read completes moves to the front.
      if partialCount > 0 {
        bytes.baseAddress!.copyMemory(
          from: bytes.baseAddress! + wholeCount * recordSize, byteCount: partialCount)
      }
    }
    return true
  }

  /// Closes the descriptor, which also ends a grab; calling it again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    // The device may be gone already; there is nothing to do about an error.
    try? fileDescriptor.close()
  }

  private func ioctl(_ name: String, _ call: (CInt) -> CInt) throws -> CInt {
    precondition(!isClosed, "\(name) after close()")
    return try retryOnInterrupt(name, path: path) { call(fileDescriptor.rawValue) }
  }
}
