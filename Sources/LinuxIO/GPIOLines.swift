import ScoreboardSettings

/// A set of GPIO lines requested together and held until released; line `i` is the
/// `i`-th line of the request. Values are logical (active-low lines inverted).
///
/// The real implementation goes through libgpiod (v1 or v2); tests use an in-memory
/// fake that records every change (`FakeGPIOLines`, in the test-only TestSupport).
public protocol GPIOLines: AnyObject {
  /// How many lines the request holds.
  var count: Int { get }

  /// Sets an output line.
  func set(_ line: Int, _ value: Bool) throws

  /// Reads a line's value.
  func get(_ line: Int) throws -> Bool

  /// Turns a line into an input or back into an output (driving `value`), as the
  /// TM1637's DIO is turned around to read the chip's acknowledgement.
  func reconfigure(_ line: Int, as settings: GPIOLineSettings) throws

  /// A descriptor that is readable when edge events are waiting; nil when no line of
  /// the request reports edges. Owned by the request.
  var eventDescriptor: FileDescriptor? { get }

  /// Reads the waiting edge events without blocking.
  func readEvents() throws -> [GPIOEdgeEvent]

  /// Releases the lines (outputs go back to the kernel's default); idempotent.
  func release()
}

/// Opens line requests: the real libgpiod backend, or a fake one in tests.
public protocol GPIOBackend: AnyObject {
  /// Whether the kernel can debounce inputs (`GPIOLineSettings.debounce`), as with libgpiod
  /// v2. When false a request with a debounce period fails with `ENOTSUP`: request the
  /// inputs without one and debounce in user space.
  var supportsKernelDebounce: Bool { get }

  /// Requests `lines` for `consumer` (the name tools such as `gpioinfo` show).
  ///
  /// - Throws: `GPIOError` naming the line and what failed.
  func request(_ lines: [(address: GPIOLine, settings: GPIOLineSettings)], consumer: String)
    throws -> any GPIOLines
}

/// A GPIO request or operation that failed, with the line it concerns.
public struct GPIOError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What failed: `find`, `request`, `set`, `get`, `reconfigure`, `read events`.
  public var operation: String
  /// The line as the user wrote it (`GPIO17`, `/dev/gpiochip0:17`), when one is concerned.
  public var line: String?
  /// Why it failed.
  public var errno: Errno
  /// What the backend knows beyond `errno` (`no GPIO line is named GPIO99`); nil gives
  /// the usual hint for `errno`, if any.
  public var hint: String?

  /// An error of `operation` on `line`, failing with `errno`.
  public init(operation: String, line: String?, errno: Errno, hint: String? = nil) {
    self.operation = operation
    self.line = line
    self.errno = errno
    self.hint = hint
  }

  /// `request GPIO17: Device or resource busy (EBUSY) (another program or another section
  /// uses this line)`.
  public var description: String {
    let subject = line.map { " \($0)" } ?? ""
    let hint: String
    if let explicit = self.hint {
      hint = "; \(explicit)"
    } else {
      switch errno {
      case .permissionDenied: hint = "; the user needs to be in the 'gpio' group"
      case .busy: hint = " (another program or another section uses this line)"
      default: hint = ""
      }
    }
    return "\(operation)\(subject): \(errno)\(hint)"
  }
}
