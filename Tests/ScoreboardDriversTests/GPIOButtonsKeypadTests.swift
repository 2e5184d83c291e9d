import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings
import TestExpectations
import TestSupport
import Testing

@Suite struct GPIOButtonsKeypadTests {
  static let logger = Logger(
    output: .standardError, programName: "scoreboardd-test", minimumLevel: .error)
  static let buttons: [(key: Key, line: GPIOLine)] = [
    (Key("BTN_0")!, .name("GPIO17")), (Key("BTN_1")!, .offset(chip: "/dev/gpiochip0", offset: 27)),
  ]

  func keypad(
    backend: any GPIOBackend, kernelDebounce: Bool, longPressKeys: Set<Key> = []
  ) throws -> GPIOButtonsKeypad {
    try GPIOButtonsKeypad(
      name: "buttons", buttons: Self.buttons, longPressKeys: longPressKeys, backend: backend,
      kernelDebounce: kernelDebounce, logger: Self.logger)
  }

  func event(_ name: String, _ kind: KeyEvent.Kind, at ms: Int64, long: Bool = false) -> KeyEvent {
    KeyEvent(keypad: "buttons", key: Key(name, long: long)!, kind: kind, time: .milliseconds(ms))
  }

  func nanoseconds(_ ms: Int64) -> Int64 { ms * 1_000_000 }

  @Test(arguments: [false, true]) func requestsInputsReportingBothEdges(kernelDebounce: Bool) throws
  {
    let backend = FakeGPIOBackend()
    let keypad = try keypad(backend: backend, kernelDebounce: kernelDebounce)
    let request = try #require(backend.requests.first)
    #expect(backend.requests.count == 1)
    #expect(request.addresses == Self.buttons.map(\.line))
    #expect(request.consumer.contains("buttons"))
    let expected = GPIOLineSettings.input(
      bias: .pullUp, activeLow: true, edges: .both,
      debounce: kernelDebounce ? 20_000_000 : nil)
    #expect(request.settings == [expected, expected])
    #expect(keypad.waitingFor == DeviceWait(descriptor: request.eventDescriptor, events: .readable))
  }

  @Test func takesBiasAndPolarityAsGiven() throws {
    let backend = FakeGPIOBackend()
    _ = try GPIOButtonsKeypad(
      name: "buttons", buttons: Self.buttons, bias: .pullDown, activeLow: false,
      debounce: .milliseconds(5), longPressKeys: [], backend: backend, kernelDebounce: true,
      logger: Self.logger)
    let settings = try #require(backend.requests.first).settings
    #expect(
      settings.allSatisfy {
        $0 == .input(bias: .pullDown, activeLow: false, edges: .both, debounce: 5_000_000)
      })
  }

  @Test func bouncingPressAndReleaseCountOnceAtTheirKernelTimes() throws {
    let backend = FakeGPIOBackend()
    let keypad = try keypad(backend: backend, kernelDebounce: false)
    let lines = try #require(backend.requests.first)
    for (ms, value) in [(100, true), (101, false), (102, true), (104, false), (105, true)] {
      lines.drive(0, value, at: nanoseconds(Int64(ms)))
    }
    // The edges make the event descriptor readable.
    let loop = PollLoop()
    loop.watch(try #require(keypad.waitingFor.descriptor), for: .readable) { _ in }
    #expect(try loop.runOnce(timeout: .zero) == 1)

    // Read late: the events carry the edges' times, not the reading's.
    #expect(try keypad.readEvents(at: .milliseconds(110)) == [])
    #expect(keypad.waitingFor.deadline == .milliseconds(125))
    #expect(keypad.service(at: .milliseconds(125)) == [event("BTN_0", .press, at: 105)])
    #expect(keypad.waitingFor.deadline == nil)

    for (ms, value) in [(300, false), (301, true), (303, false)] {
      lines.drive(0, value, at: nanoseconds(Int64(ms)))
    }
    #expect(try keypad.readEvents(at: .milliseconds(400)) == [event("BTN_0", .release, at: 303)])
  }

  @Test func glitchIsDropped() throws {
    let backend = FakeGPIOBackend()
    let keypad = try keypad(backend: backend, kernelDebounce: false)
    let lines = try #require(backend.requests.first)
    lines.drive(1, true, at: nanoseconds(100))
    lines.drive(1, false, at: nanoseconds(108))
    #expect(try keypad.readEvents(at: .milliseconds(110)) == [])
    #expect(keypad.serviceDeadlines(until: .milliseconds(1_000)) == [])
  }

  @Test func serviceTakesEdgesNotYetRead() throws {
    // A bounce that came just before the period ended, still unread when the deadline is
    // serviced, restarts the period.
    let backend = FakeGPIOBackend()
    let keypad = try keypad(backend: backend, kernelDebounce: false)
    let lines = try #require(backend.requests.first)
    lines.drive(0, true, at: nanoseconds(100))
    #expect(try keypad.readEvents(at: .milliseconds(100)) == [])
    lines.drive(0, false, at: nanoseconds(118))
    lines.drive(0, true, at: nanoseconds(119))
    #expect(keypad.service(at: .milliseconds(120)) == [])
    #expect(keypad.service(at: .milliseconds(139)) == [event("BTN_0", .press, at: 119)])
  }

  /// The kernel stamps a debounced edge when its timer fires, one debounce period (20 ms
  /// here) after the edge: the keypad takes the stamp back to the edge, never before an
  /// earlier one.
  @Test func kernelDebouncedEdgesAreTakenBackToTheEdge() throws {
    let backend = FakeGPIOBackend()
    let keypad = try keypad(backend: backend, kernelDebounce: true)
    let lines = try #require(backend.requests.first)
    lines.drive(1, true, at: nanoseconds(120))
    #expect(try keypad.readEvents(at: .milliseconds(121)) == [event("BTN_1", .press, at: 100)])
    #expect(keypad.waitingFor.deadline == nil)
    lines.drive(1, false, at: nanoseconds(123))
    lines.drive(0, true, at: nanoseconds(124))
    #expect(
      try keypad.readEvents(at: .milliseconds(125))
        == [event("BTN_1", .release, at: 103), event("BTN_0", .press, at: 104)])
    // A stamp that taken back would come before the last edge keeps the order.
    lines.drive(0, false, at: nanoseconds(110))
    #expect(try keypad.readEvents(at: .milliseconds(126)) == [event("BTN_0", .release, at: 104)])
  }

  @Test func longPressBindingsWaitForTheRelease() throws {
    let backend = FakeGPIOBackend()
    let keypad = try keypad(backend: backend, kernelDebounce: true, longPressKeys: [Key("BTN_0")!])
    let lines = try #require(backend.requests.first)

    // The kernel's stamps come one debounce period (20 ms) after the edges.
    lines.drive(0, true, at: nanoseconds(120))
    #expect(try keypad.readEvents(at: .milliseconds(120)) == [])
    lines.drive(0, false, at: nanoseconds(320))
    #expect(
      try keypad.readEvents(at: .milliseconds(320))
        == [event("BTN_0", .press, at: 300), event("BTN_0", .release, at: 300)])

    lines.drive(0, true, at: nanoseconds(1_020))
    #expect(try keypad.readEvents(at: .milliseconds(1_020)) == [])
    #expect(keypad.waitingFor.deadline == .milliseconds(2_000))
    #expect(
      keypad.service(at: .milliseconds(2_000)) == [event("BTN_0", .press, at: 2_000, long: true)])
    lines.drive(0, false, at: nanoseconds(2_520))
    #expect(try keypad.readEvents(at: .milliseconds(2_520)) == [])

    // The other button has no long binding: no added latency.
    lines.drive(1, true, at: nanoseconds(3_020))
    #expect(try keypad.readEvents(at: .milliseconds(3_020)) == [event("BTN_1", .press, at: 3_000)])
  }

  @Test func buttonHeldAtStartIsNoPress() throws {
    let backend = ModelledGPIOBackend()
    var held = true
    backend.inputModel = { line, _ in line == 0 && held }
    let keypad = try keypad(backend: backend, kernelDebounce: false)
    let lines = try #require(backend.requests.first)
    #expect(keypad.waitingFor.deadline == nil)
    held = false
    lines.updateInputs(at: nanoseconds(500))
    #expect(try keypad.readEvents(at: .milliseconds(500)) == [])
    #expect(
      keypad.serviceDeadlines(until: .milliseconds(1_000)) == [event("BTN_0", .release, at: 500)])
  }

  @Test func failedRequestThrowsNamingTheLine() throws {
    let backend = FakeGPIOBackend()
    backend.failure = GPIOError(operation: "request", line: "GPIO17", errno: .busy)
    let error = try #require(
      expectError(GPIOError.self) { try keypad(backend: backend, kernelDebounce: false) })
    #expect(error.description.contains("GPIO17"))
    #expect(error.description.contains("another program"))
  }

  @Test func closeReleasesTheLinesOnce() throws {
    let backend = FakeGPIOBackend()
    let keypad = try keypad(backend: backend, kernelDebounce: true)
    keypad.close()
    keypad.close()
    #expect(try #require(backend.requests.first).isReleased)
  }
}
