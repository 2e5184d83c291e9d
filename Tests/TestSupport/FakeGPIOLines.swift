import LinuxIO
import ScoreboardSettings

/// GPIO lines that exist only in memory, for tests: every change is recorded in order,
/// and inputs follow a model of the hardware the test supplies.
public final class FakeGPIOLines: GPIOLines {
  /// Something that happened to a line, in order.
  public enum Record: Hashable, Sendable {
    /// An output was set (whether or not its value changed).
    case set(line: Int, value: Bool)
    /// A line was turned into an input or an output.
    case reconfigure(line: Int, direction: GPIOLineSettings.Direction)
  }

  public let addresses: [GPIOLine]
  public let consumer: String
  public private(set) var settings: [GPIOLineSettings]
  /// The settings the lines were requested with: where `transitions` starts from.
  private let requestedSettings: [GPIOLineSettings]
  /// The logical value each line has now: what an output drives, or what an input
  /// last read.
  public private(set) var values: [Bool]
  public private(set) var records: [Record] = []
  public private(set) var isReleased = false
  /// The level of input `line`, computed from the other lines (a key of a matrix
  /// connecting a row to a column, a chip pulling a data line low). Without a model,
  /// an input keeps the value it was given.
  public var inputModel: ((_ line: Int, _ lines: FakeGPIOLines) -> Bool)?

  private var queued: [GPIOEdgeEvent] = []
  private let signal: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?

  public init(
    addresses: [GPIOLine], settings: [GPIOLineSettings], consumer: String = "test"
  ) throws {
    precondition(addresses.count == settings.count)
    self.addresses = addresses
    self.settings = settings
    requestedSettings = settings
    self.consumer = consumer
    values = settings.map { $0.direction == .output ? $0.initialValue : false }
    if settings.contains(where: { $0.direction == .input && $0.edges != .none }) {
      let pipe = try FileDescriptor.pipe()
      try pipe.readEnd.setNonBlocking()
      signal = pipe
    } else {
      signal = nil
    }
  }

  deinit {
    try? signal?.readEnd.close()
    try? signal?.writeEnd.close()
  }

  public var count: Int { addresses.count }

  /// The changes of output levels since the request, in order: what a logic analyser on
  /// the lines sees.
  public var transitions: [(line: Int, value: Bool)] {
    var levels = requestedSettings.map { $0.direction == .output ? $0.initialValue : true }
    var changes: [(line: Int, value: Bool)] = []
    for record in records {
      switch record {
      case .set(let line, let value) where levels[line] != value:
        levels[line] = value
        changes.append((line, value))
      case .reconfigure(let line, .input) where !levels[line]:
        // An input is pulled up: the line goes high unless a device drives it.
        levels[line] = true
        changes.append((line, true))
      default:
        break
      }
    }
    return changes
  }

  public func set(_ line: Int, _ value: Bool) throws {
    precondition(!isReleased, "set on released lines")
    precondition(settings[line].direction == .output, "set on input line \(line)")
    values[line] = value
    records.append(.set(line: line, value: value))
  }

  public func get(_ line: Int) throws -> Bool {
    precondition(!isReleased, "get on released lines")
    if settings[line].direction == .input, let inputModel {
      values[line] = inputModel(line, self)
    }
    return values[line]
  }

  public func reconfigure(_ line: Int, as settings: GPIOLineSettings) throws {
    precondition(!isReleased, "reconfigure on released lines")
    self.settings[line] = settings
    records.append(.reconfigure(line: line, direction: settings.direction))
    if settings.direction == .output {
      values[line] = settings.initialValue
      records.append(.set(line: line, value: settings.initialValue))
    }
  }

  public var eventDescriptor: FileDescriptor? { signal?.readEnd }

  public func readEvents() throws -> [GPIOEdgeEvent] {
    if let signal {
      var buffer = [UInt8](repeating: 0, count: 64)
      while (try? buffer.withUnsafeMutableBytes { try signal.readEnd.read(into: $0) }) ?? 0 > 0 {}
    }
    defer { queued.removeAll() }
    return queued
  }

  /// Sets input `line` to `value` as the hardware would, queuing an edge event when the
  /// line reports that edge.
  public func drive(_ line: Int, _ value: Bool, at timestamp: Int64) {
    precondition(settings[line].direction == .input, "drive on output line \(line)")
    guard values[line] != value else { return }
    values[line] = value
    let reported: Bool =
      switch settings[line].edges {
      case .none: false
      case .both: true
      case .rising: value
      case .falling: !value
      }
    if reported {
      queued.append(GPIOEdgeEvent(line: line, value: value, timestamp: timestamp))
      try? signal?.writeEnd.writeAll([1])
    }
  }

  /// Re-evaluates every input through `inputModel`, as after a key closed or opened.
  public func updateInputs(at timestamp: Int64) {
    guard let inputModel else { return }
    for line in 0..<count where settings[line].direction == .input {
      drive(line, inputModel(line, self), at: timestamp)
    }
  }

  public func release() {
    isReleased = true
  }
}

/// Hands out `FakeGPIOLines` and keeps them for the test to inspect.
public final class FakeGPIOBackend: GPIOBackend {
  public private(set) var requests: [FakeGPIOLines] = []
  /// When set, the next request fails with it.
  public var failure: GPIOError?
  /// Whether requests may ask for kernel debounce, as with libgpiod v2. Set it to false to
  /// play libgpiod v1: a request with a debounce period then fails with `ENOTSUP`.
  public var supportsKernelDebounce = true

  public init() {}

  public func request(
    _ lines: [(address: GPIOLine, settings: GPIOLineSettings)], consumer: String
  ) throws -> any GPIOLines {
    if let failure {
      self.failure = nil
      throw failure
    }
    if !supportsKernelDebounce, let line = lines.first(where: { ($0.settings.debounce ?? 0) > 0 }) {
      throw GPIOError(operation: "request", line: line.address.description, errno: .notSupported)
    }
    let request = try FakeGPIOLines(
      addresses: lines.map(\.address), settings: lines.map(\.settings), consumer: consumer)
    requests.append(request)
    return request
  }
}
