import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings
import TestSupport
import Testing

@Suite struct GPIOMatrixKeypadTests {
  static let logger = Logger(
    output: .standardError, programName: "scoreboardd-test", minimumLevel: .error)
  /// A 4x4 membrane keypad, row by row.
  static let keys = [
    "KEY_1", "KEY_2", "KEY_3", "KEY_A", "KEY_4", "KEY_5", "KEY_6", "KEY_B",
    "KEY_7", "KEY_8", "KEY_9", "KEY_C", "KEY_KPASTERISK", "KEY_0", "KEY_ENTER", "KEY_D",
  ].map { Key($0)! }
  static let rows: [GPIOLine] = ["GPIO5", "GPIO6", "GPIO13", "GPIO19"].map { .name($0) }
  static let columns: [GPIOLine] = ["GPIO12", "GPIO16", "GPIO20", "GPIO21"].map {
    .name($0)
  }

  /// A 4x4 keypad on simulated hardware.
  struct Rig {
    let matrix = KeyMatrix(rows: 4, columns: 4)
    let keypad: GPIOMatrixKeypad
    let lines: FakeGPIOLines

    init(closedAtStart: Set<Int> = []) throws {
      matrix.closed = closedAtStart
      let backend = ModelledGPIOBackend()
      backend.inputModel = matrix.level(of:in:)
      keypad = try GPIOMatrixKeypad(
        name: "pad", rows: GPIOMatrixKeypadTests.rows, columns: GPIOMatrixKeypadTests.columns,
        keys: GPIOMatrixKeypadTests.keys, backend: backend, logger: GPIOMatrixKeypadTests.logger)
      lines = try #require(backend.requests.first)
    }

    /// Whether every row is driven: the idle state.
    var allRowsDriven: Bool { lines.values[0..<4].allSatisfy { $0 } }

    /// Closes or opens keys at `ms` as the hardware would: columns change and report
    /// edges.
    func set(_ closed: Set<Int>, at ms: Int64) {
      matrix.closed = closed
      lines.updateInputs(at: ms * 1_000_000)
    }
  }

  func event(_ key: Int, _ kind: KeyEvent.Kind, at ms: Int64) -> KeyEvent {
    KeyEvent(keypad: "pad", key: Self.keys[key], kind: kind, time: .milliseconds(ms))
  }

  @Test func requestsOpenDrainRowsAndPulledUpColumns() throws {
    let backend = FakeGPIOBackend()
    _ = try GPIOMatrixKeypad(
      name: "pad", rows: Self.rows, columns: Self.columns, keys: Self.keys, backend: backend,
      logger: Self.logger)
    let request = try #require(backend.requests.first)
    #expect(backend.requests.count == 1)
    #expect(request.addresses == Self.rows + Self.columns)
    #expect(request.consumer.contains("pad"))
    let row = GPIOLineSettings.output(initialValue: true, drive: .openDrain, activeLow: true)
    let column = GPIOLineSettings.input(bias: .pullUp, activeLow: true, edges: .both)
    #expect(
      request.settings == Array(repeating: row, count: 4) + Array(repeating: column, count: 4))
  }

  @Test func idleKeypadDrivesEveryRowAndAsksForNoWakeup() throws {
    let rig = try Rig()
    #expect(rig.allRowsDriven)
    #expect(
      rig.keypad.waitingFor == DeviceWait(descriptor: rig.lines.eventDescriptor, events: .readable))
    // Nothing to read: no scan.
    let records = rig.lines.records.count
    #expect(try rig.keypad.readEvents(at: .milliseconds(5)) == [])
    #expect(rig.lines.records.count == records)
  }

  @Test func edgeStartsScanningThatFindsTheKeyAndEndsWhenItIsUp() throws {
    let rig = try Rig()
    rig.set([6], at: 100)
    #expect(try rig.keypad.readEvents(at: .milliseconds(100)) == [])
    #expect(rig.keypad.waitingFor.deadline == .milliseconds(110))
    #expect(rig.keypad.service(at: .milliseconds(110)) == [])
    #expect(rig.keypad.service(at: .milliseconds(120)) == [event(6, .press, at: 100)])
    // Held: scanning goes on, the rows driven between scans.
    #expect(rig.keypad.serviceDeadlines(until: .milliseconds(500)) == [])
    #expect(rig.keypad.waitingFor.deadline == .milliseconds(510))
    #expect(rig.allRowsDriven)

    rig.set([], at: 505)
    #expect(rig.keypad.serviceDeadlines(until: .milliseconds(600)) == [event(6, .release, at: 510)])
    #expect(rig.keypad.waitingFor.deadline == nil)
    #expect(rig.allRowsDriven)
  }

  @Test func scanDrivesOneRowAtATime() throws {
    let rig = try Rig()
    rig.set([9], at: 100)
    rig.matrix.clearReads()
    _ = try rig.keypad.readEvents(at: .milliseconds(100))
    #expect(
      rig.matrix.drivenRowsAtReads
        == [[0], [0], [0], [0], [1], [1], [1], [1], [2], [2], [2], [2], [3], [3], [3], [3]])
  }

  @Test func bounceSeenByAScanStartsTheDebounceOver() throws {
    let rig = try Rig()
    rig.set([0], at: 100)
    #expect(try rig.keypad.readEvents(at: .milliseconds(100)) == [])
    // The contact opens again before the next scan: the run ends, and so does scanning.
    rig.set([], at: 108)
    #expect(rig.keypad.service(at: .milliseconds(110)) == [])
    #expect(rig.keypad.waitingFor.deadline == nil)
    // It closes for good: the edge starts a new run.
    rig.set([0], at: 112)
    #expect(try rig.keypad.readEvents(at: .milliseconds(112)) == [])
    #expect(rig.keypad.service(at: .milliseconds(122)) == [])
    #expect(rig.keypad.service(at: .milliseconds(132)) == [event(0, .press, at: 112)])
  }

  @Test func edgesWhileScanningStartNothing() throws {
    let rig = try Rig()
    rig.set([0], at: 100)
    _ = try rig.keypad.readEvents(at: .milliseconds(100))
    // An edge of the kind scanning itself makes, read between scans.
    rig.lines.drive(4, false, at: 105 * 1_000_000)
    let records = rig.lines.records.count
    #expect(try rig.keypad.readEvents(at: .milliseconds(105)) == [])
    #expect(rig.lines.records.count == records)
    #expect(rig.keypad.waitingFor.deadline == .milliseconds(110))
  }

  @Test func glitchReportsNothingAndLeavesTheKeypadIdle() throws {
    let rig = try Rig()
    rig.set([15], at: 100)
    rig.set([], at: 101)
    #expect(try rig.keypad.readEvents(at: .milliseconds(102)) == [])
    #expect(rig.keypad.waitingFor.deadline == nil)
    #expect(rig.allRowsDriven)
  }

  @Test func twoKeysHeldAtOnceAreBothReported() throws {
    let rig = try Rig()
    rig.set([1, 11], at: 100)
    _ = try rig.keypad.readEvents(at: .milliseconds(100))
    #expect(
      rig.keypad.serviceDeadlines(until: .milliseconds(150))
        == [event(1, .press, at: 100), event(11, .press, at: 100)])
    rig.set([11], at: 155)
    #expect(rig.keypad.serviceDeadlines(until: .milliseconds(250)) == [event(1, .release, at: 160)])
    rig.set([], at: 255)
    #expect(
      rig.keypad.serviceDeadlines(until: .milliseconds(350)) == [event(11, .release, at: 260)])
    #expect(rig.keypad.waitingFor.deadline == nil)
  }

  @Test func thirdKeyOnARectangleWaitsUntilTheRectangleOpens() throws {
    let rig = try Rig()
    // Keys 0 and 1 (row 0), then key 4 (row 1, column 0): key 5 would read as a ghost.
    rig.set([0, 1], at: 100)
    _ = try rig.keypad.readEvents(at: .milliseconds(100))
    #expect(
      rig.keypad.serviceDeadlines(until: .milliseconds(150))
        == [event(0, .press, at: 100), event(1, .press, at: 100)])
    rig.set([0, 1, 4], at: 155)
    #expect(rig.keypad.serviceDeadlines(until: .milliseconds(400)) == [])
    rig.set([1, 4], at: 405)
    #expect(
      rig.keypad.serviceDeadlines(until: .milliseconds(450))
        == [event(0, .release, at: 410), event(4, .press, at: 410)])
  }

  @Test(arguments: 0..<16) func everyKeyOfA4x4KeypadIsFound(key: Int) throws {
    let rig = try Rig()
    rig.set([key], at: 100)
    var events = try rig.keypad.readEvents(at: .milliseconds(100))
    events += rig.keypad.serviceDeadlines(until: .milliseconds(200))
    rig.set([], at: 205)
    events += rig.keypad.serviceDeadlines(until: .milliseconds(300))
    #expect(events == [event(key, .press, at: 100), event(key, .release, at: 210)])
    #expect(rig.keypad.waitingFor.deadline == nil)
    #expect(rig.allRowsDriven)
  }

  @Test func keyHeldAtStartIsNoPress() throws {
    let rig = try Rig(closedAtStart: [7])
    // Scanning goes on at once: another key on the held key's column makes no edge.
    #expect(rig.keypad.waitingFor.deadline != nil)
    #expect(rig.keypad.service(at: .milliseconds(100)) == [])
    #expect(rig.keypad.serviceDeadlines(until: .milliseconds(150)) == [])
    rig.set([], at: 155)
    #expect(rig.keypad.serviceDeadlines(until: .milliseconds(300)) == [event(7, .release, at: 160)])
    #expect(rig.keypad.waitingFor.deadline == nil)
  }

  @Test func failingScanIsLoggedAndEndsScanning() throws {
    let matrix = KeyMatrix(rows: 4, columns: 4)
    let backend = FailingGPIOBackend()
    backend.modelled.inputModel = matrix.level(of:in:)
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    let keypad = try GPIOMatrixKeypad(
      name: "pad", rows: Self.rows, columns: Self.columns, keys: Self.keys, backend: backend,
      logger: Logger(output: writeEnd, programName: "test", style: .journal))
    let lines = try #require(backend.modelled.requests.first)
    matrix.closed = [5]
    lines.updateInputs(at: 100_000_000)
    _ = try keypad.readEvents(at: .milliseconds(100))

    backend.readsFail = true
    #expect(keypad.service(at: .milliseconds(110)) == [])
    #expect(
      String(decoding: try readEnd.read(count: 1), as: UTF8.self)
        == "<4>keypad pad: scan failed: read GPIO12: \(Errno.ioError)\n")
    #expect(keypad.waitingFor.deadline == nil)
    #expect(lines.values[0..<4].allSatisfy { $0 })
    // The next edge finds the lines still failing: reading reports it.
    lines.drive(4, true, at: 120_000_000)
    #expect(throws: GPIOError.self) { try keypad.readEvents(at: .milliseconds(120)) }
  }

  @Test func failedRequestThrowsNamingTheLine() throws {
    let backend = FakeGPIOBackend()
    backend.failure = GPIOError(operation: "request", line: "GPIO19", errno: .noSuchFileOrDirectory)
    #expect(throws: GPIOError(operation: "request", line: "GPIO19", errno: .noSuchFileOrDirectory))
    {
      try GPIOMatrixKeypad(
        name: "pad", rows: Self.rows, columns: Self.columns, keys: Self.keys, backend: backend,
        logger: Self.logger)
    }
  }

  @Test func closeReleasesTheLinesOnce() throws {
    let rig = try Rig()
    rig.keypad.close()
    rig.keypad.close()
    #expect(rig.lines.isReleased)
  }
}
