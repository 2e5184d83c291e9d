import CScoreboardLinux
import ScoreboardSettings

/// Lines held through the C shim's libgpiod requests, one request per chip behind one
/// `GPIOLines`: line `i` is the `i`-th line given, whatever its chip.
///
/// Owns the requests and releases them on `release()` or deinit. Events of several chips
/// come through one epoll descriptor, owned here.
final class LibgpiodLines: GPIOLines {
  /// A line to request: where it is and how it is configured.
  struct Line {
    /// The line as the user wrote it, for errors.
    var name: String
    var chip: String
    var offset: CUnsignedInt
    var settings: GPIOLineSettings
  }

  /// The shim's request for the lines on one chip; releases them on deinit.
  private final class ChipRequest {
    let handle: OpaquePointer
    /// The index in the whole request of each of this request's lines.
    let lines: [Int]

    init(handle: OpaquePointer, lines: [Int]) {
      self.handle = handle
      self.lines = lines
    }

    deinit {
      sbl_gpio_release(handle)
    }
  }

  /// Edge events read from the shim at a time.
  private static let eventBatch = 16

  let count: Int
  private let names: [String]
  private var settings: [GPIOLineSettings]
  private var chipRequests: [ChipRequest] = []
  /// Where each line is: its chip request and its index there.
  private var placement: [(request: Int, line: Int)]
  /// Watches the event descriptors of all chip requests, when there are several.
  private var eventSet: FileDescriptor?
  private var isReleased = false

  /// Requests `lines` for `consumer`, chip by chip in the order the chips first appear; on
  /// failure the lines already requested are released.
  ///
  /// - Throws: `GPIOError` naming `request` and the line the kernel refused.
  init(_ lines: [Line], consumer: String) throws {
    count = lines.count
    names = lines.map(\.name)
    settings = lines.map(\.settings)
    placement = Array(repeating: (0, 0), count: lines.count)
    var chips: [String] = []
    var members: [[Int]] = []
    for (index, line) in lines.enumerated() {
      if let chip = chips.firstIndex(of: line.chip) {
        members[chip].append(index)
      } else {
        chips.append(line.chip)
        members.append([index])
      }
    }
    for (chip, indices) in zip(chips, members) {
      for (position, index) in indices.enumerated() {
        placement[index] = (chipRequests.count, position)
      }
      chipRequests.append(
        try Self.request(indices.map { lines[$0] }, as: indices, on: chip, consumer: consumer))
    }
    if chipRequests.count > 1 {
      let descriptors = chipRequests.map { sbl_gpio_event_descriptor($0.handle) }
      let epoll = SystemCall.epollWatching(descriptors)
      guard epoll != -1 else {
        let errno = Errno.current
        throw GPIOError(operation: "request", line: names.joined(separator: ", "), errno: errno)
      }
      eventSet = FileDescriptor(rawValue: epoll)
    }
  }

  deinit {
    release()
  }

  /// Requests `lines`, all on `chip`, whose indices in the whole request are `indices`.
  private static func request(
    _ lines: [Line], as indices: [Int], on chip: String, consumer: String
  ) throws -> ChipRequest {
    let offsets = lines.map(\.offset)
    let settings = lines.map(\.settings.libgpiodSettings)
    var failedLine = 0
    let requested: Result<OpaquePointer, Errno> = offsets.withUnsafeBufferPointer { offsets in
      settings.withUnsafeBufferPointer { settings in
        guard
          let handle = sbl_gpio_request_lines(
            chip, consumer, offsets.baseAddress, settings.baseAddress, offsets.count,
            &failedLine)
        else {
          return .failure(.current)
        }
        return .success(handle)
      }
    }
    switch requested {
    case .success(let handle):
      return ChipRequest(handle: handle, lines: indices)
    case .failure(let errno):
      let hint: String? =
        switch errno {
        case .noSuchFileOrDirectory: "there is no GPIO chip \(chip)"
        case .notSupported where lines[failedLine].settings.debounceMicroseconds > 0:
          "\(GPIOLibrary.description) cannot debounce in the kernel; debounce in user space"
        default: nil
        }
      throw GPIOError(
        operation: "request", line: lines[failedLine].name, errno: errno, hint: hint)
    }
  }

  /// The chip request holding `line` and the line's index there.
  private func place(_ line: Int) -> (request: ChipRequest, line: Int) {
    precondition(!isReleased, "GPIO line \(line) used after release")
    let place = placement[line]
    return (chipRequests[place.request], place.line)
  }

  func set(_ line: Int, _ value: Bool) throws {
    let (request, index) = place(line)
    guard sbl_gpio_set_value(request.handle, index, value) == 0 else {
      throw GPIOError(operation: "set", line: names[line], errno: .current)
    }
  }

  func get(_ line: Int) throws -> Bool {
    let (request, index) = place(line)
    let value = sbl_gpio_get_value(request.handle, index)
    guard value != -1 else {
      throw GPIOError(operation: "get", line: names[line], errno: .current)
    }
    return value == 1
  }

  func reconfigure(_ line: Int, as settings: GPIOLineSettings) throws {
    let (request, index) = place(line)
    var converted = settings.libgpiodSettings
    guard sbl_gpio_reconfigure_line(request.handle, index, &converted) == 0 else {
      throw GPIOError(operation: "reconfigure", line: names[line], errno: .current)
    }
    self.settings[line] = settings
  }

  /// The chip request's descriptor, or with several chips one that watches all of theirs;
  /// nil when no line reports edges now.
  var eventDescriptor: FileDescriptor? {
    guard !isReleased, settings.contains(where: { $0.direction == .input && $0.edges != .none })
    else { return nil }
    return eventSet ?? FileDescriptor(rawValue: sbl_gpio_event_descriptor(chipRequests[0].handle))
  }

  /// The waiting events of every chip, in the order of their timestamps.
  func readEvents() throws -> [GPIOEdgeEvent] {
    precondition(!isReleased, "GPIO events read after release")
    var events: [GPIOEdgeEvent] = []
    for request in chipRequests {
      var batch = Self.eventBatch
      while batch == Self.eventBatch {
        let read: Result<Int, Errno> = withUnsafeTemporaryAllocation(
          of: sbl_gpio_edge_event.self, capacity: Self.eventBatch
        ) { buffer in
          let count = sbl_gpio_read_events(request.handle, buffer.baseAddress, buffer.count)
          guard count != -1 else { return .failure(.current) }
          for event in buffer[..<Int(count)] {
            events.append(
              GPIOEdgeEvent(
                line: request.lines[event.line], value: event.rising,
                timestamp: Int64(truncatingIfNeeded: event.timestamp_ns)))
          }
          return .success(Int(count))
        }
        switch read {
        case .success(let count): batch = count
        case .failure(let errno): throw GPIOError(operation: "read events", line: nil, errno: errno)
        }
      }
    }
    // Lines (libgpiod v1) and chips are read one after the other: merge them by time,
    // keeping the kernel's order among equal timestamps.
    return events.enumerated()
      .sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
      .map(\.element)
  }

  func release() {
    guard !isReleased else { return }
    isReleased = true
    try? eventSet?.close()
    eventSet = nil
    chipRequests = []
  }
}
