import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings
import TestSupport
import Testing

/// The GPIO display driver on the fake backend: a device that stops answering, lines
/// that fail, requests that fail, shutdown, and how long frames take.
@Suite struct GPIOSegmentDisplayTests {
  /// Fake lines whose operations can be made to fail, as when the chip's character
  /// device goes away.
  final class FlakyLines: GPIOLines {
    let fake: FakeGPIOLines
    var failing = false

    init(_ fake: FakeGPIOLines) {
      self.fake = fake
    }

    var count: Int { fake.count }

    func set(_ line: Int, _ value: Bool) throws {
      if failing {
        throw GPIOError(operation: "set", line: "GPIO17", errno: .ioError)
      }
      try fake.set(line, value)
    }

    func get(_ line: Int) throws -> Bool { try fake.get(line) }

    func reconfigure(_ line: Int, as settings: GPIOLineSettings) throws {
      try fake.reconfigure(line, as: settings)
    }

    var eventDescriptor: FileDescriptor? { nil }

    func readEvents() throws -> [GPIOEdgeEvent] { [] }

    func release() { fake.release() }
  }

  /// Hands out `FlakyLines` over the fake backend's lines.
  final class FlakyBackend: GPIOBackend {
    let fake = FakeGPIOBackend()
    private(set) var requests: [FlakyLines] = []
    var supportsKernelDebounce: Bool { fake.supportsKernelDebounce }

    func request(
      _ lines: [(address: GPIOLine, settings: GPIOLineSettings)], consumer: String
    ) throws -> any GPIOLines {
      let request = try FlakyLines(
        fake.request(lines, consumer: consumer) as! FakeGPIOLines)
      requests.append(request)
      return request
    }
  }

  @Test func aTM1637ThatStopsAnsweringIsRetriedAndReinitialised() throws {
    let log = try LogCapture()
    let (display, backend) = GPIOFixtures.display(
      TM1637Protocol(cellCount: 4, bitDelay: .zero), logger: log.logger)
    let lines = try #require(backend.requests.first)
    let capture = LineCapture(lines)
    lines.inputModel = GPIOFixtures.answeringChip
    display.show(GPIOFixtures.frame("12 0"), at: .zero)
    #expect(display.isOnline)

    lines.inputModel = GPIOFixtures.missingChip
    let records = lines.records.count
    display.show(GPIOFixtures.frame("12 1"), at: .milliseconds(1_000))
    #expect(!display.isOnline)
    let slots = lines.records[records...].filter { $0 == .reconfigure(line: 1, direction: .input) }
    #expect(slots.count == 1, "the frame stops at the first missing acknowledgement")
    #expect(lines.settings[1].direction == .input, "DIO is left released")
    #expect(lines.values[0], "CLK is left high")
    #expect(display.waitingFor.deadline == .milliseconds(1_250))
    capture.skip()

    display.show(GPIOFixtures.frame("12 2"), at: .milliseconds(1_100))
    #expect(capture.newChanges().isEmpty, "nothing is sent to an offline device")
    display.service([], at: .milliseconds(1_250))
    #expect(!display.isOnline, "still no answer: the next try backs off")
    #expect(display.waitingFor.deadline == .milliseconds(1_750))
    capture.skip()

    // The module was unplugged and comes back in its power-up state.
    lines.inputModel = GPIOFixtures.answeringChip
    display.service([], at: .milliseconds(1_750))
    #expect(display.isOnline)
    var chip = TM1637Decoder()
    chip.receive(capture.newChanges())
    #expect(
      chip.transactions == [[0x40], [0xC0, 0x06, 0x5B, 0x00, 0x5B], [0x8C]],
      "fully re-initialised, with the latest frame")
    #expect(chip.violations.isEmpty)

    let warnings = log.lines.filter { $0.hasPrefix("<4>") }
    #expect(
      warnings == ["<4>display main: no acknowledgement from the device; offline, retrying"],
      "logged once")
    #expect(log.lines.last == "<5>display main: the device answers again; re-initialised")
    #expect(display.waitingFor == .nothing)
    #expect(display.refreshDueAt == .milliseconds(61_750), "periodic re-initialisation")
  }

  @Test func failedLineOperationsReleaseTheLinesAndRequestThemAgain() throws {
    let log = try LogCapture()
    let backend = FlakyBackend()
    let display = GPIOSegmentDisplay(
      name: "main", addresses: [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")],
      encoder: MAX7219Protocol(cellCount: 4), backend: backend, logger: log.logger, at: .zero)
    display.show(GPIOFixtures.frame("12 0"), at: .zero)
    let first = try #require(backend.requests.first)
    first.failing = true
    display.show(GPIOFixtures.frame("12 1"), at: .milliseconds(500))
    #expect(!display.isOnline)
    #expect(first.fake.isReleased)
    #expect(display.waitingFor.deadline == .milliseconds(750))
    #expect(
      log.lines.contains(
        "<4>display main: set GPIO17: \(Errno.ioError); offline, retrying"))

    display.show(GPIOFixtures.frame("12 2"), at: .milliseconds(600))
    display.service([], at: .milliseconds(750))
    #expect(display.isOnline)
    let second = try #require(backend.requests.last)
    #expect(backend.requests.count == 2)
    var chain = MAX7219ChainDecoder(chipCount: 1)
    chain.receive(second.fake.transitions.map { (line: $0.line, high: $0.value) })
    #expect(chain.chips[0].writes == 9, "every register of the fresh request")
    #expect(chain.chips[0].shownDigits == [0x6D, 0x00, 0x6D, 0x30])
  }

  @Test func aRequestThatFailsAtStartIsRetried() throws {
    let log = try LogCapture()
    let backend = FakeGPIOBackend()
    let busy = GPIOError(operation: "request", line: "GPIO17", errno: .busy)
    backend.failure = busy
    let display = GPIOSegmentDisplay(
      name: "main", addresses: [.name("GPIO17"), .name("GPIO18")],
      encoder: TM1637Protocol(cellCount: 4, bitDelay: .zero), backend: backend,
      logger: log.logger, at: .zero)
    #expect(!display.isOnline)
    #expect(log.lines == ["<4>display main: \(busy); will keep trying"])
    #expect(display.waitingFor.deadline == .milliseconds(250))

    display.show(GPIOFixtures.frame("1"), at: .milliseconds(100))
    backend.failure = busy
    display.service([], at: .milliseconds(250))
    #expect(backend.requests.isEmpty)
    #expect(display.waitingFor.deadline == .milliseconds(750))
    #expect(log.lines.count == 2, "later failures at debug level")

    display.service([], at: .milliseconds(750))
    let lines = try #require(backend.requests.first)
    #expect(lines.consumer == "scoreboardd")
    #expect(!display.isOnline, "the lines came, but the chip does not answer yet")
    lines.inputModel = GPIOFixtures.answeringChip
    display.service([], at: .milliseconds(1_750))
    #expect(display.isOnline)
    var chip = TM1637Decoder()
    chip.receive(lines.transitions.map { (line: $0.line, high: $0.value) })
    #expect(chip.grids.prefix(4) == [0x06, 0, 0, 0])
    #expect(log.lines.contains("<6>display main: lines CLK=GPIO17, DIO=GPIO18 requested"))
  }

  @Test func shutdownShowsTheFinalFrameThenReleasesTheLines() throws {
    var bench = try TM1637DisplayTests.Bench(TM1637Protocol(cellCount: 4, bitDelay: .zero))
    _ = bench.show(GPIOFixtures.frame("12 7"))
    bench.display.shutdown(showing: GPIOFixtures.frame("", isBlank: true))
    bench.chip.receive(bench.capture.newChanges())
    #expect(!bench.chip.isDisplayOn)
    #expect(bench.chip.grids == [0, 0, 0, 0, 0, 0])
    #expect(bench.lines.isReleased)
    #expect(bench.chip.violations.isEmpty)
  }

  @Test func shutdownWithoutAFinalFrameOnlyReleasesTheLines() throws {
    var bench = try MAX7219DisplayTests.Bench(MAX7219Protocol(cellCount: 8))
    _ = bench.show(GPIOFixtures.frame("12345678"))
    let records = bench.lines.records.count
    bench.display.shutdown(showing: nil)
    #expect(bench.lines.records.count == records)
    #expect(bench.lines.isReleased)
  }
}
