@preconcurrency import Glibc
import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings
import TestSupport
import Testing

/// The serial display driver on a real pseudo-terminal, with explicit times: pacing,
/// coalescing, hang-up and reopening, acknowledgements.
@Suite(.serialized) struct SerialDisplayTests {
  /// A pseudo-terminal reached through a symbolic link, so that a test can "unplug" it
  /// and plug in another one under the same path, as udev's by-id links behave.
  final class PluggablePort {
    let folder: TemporaryFolder
    let link: String
    private(set) var terminal: PseudoTerminal?

    init() throws {
      folder = try TemporaryFolder()
      link = folder.path(of: "serial")
      try plug()
    }

    deinit {
      unplug()
    }

    func plug() throws {
      let terminal = try PseudoTerminal.open()
      unlink(link)
      symlink(terminal.slavePath, link)
      self.terminal = terminal
    }

    func unplug() {
      try? terminal?.master.close()
      terminal = nil
      unlink(link)
    }

    /// Everything the device received until the line stays quiet for 100 ms.
    func received() throws -> [UInt8] {
      guard let master = terminal?.master else { return [] }
      let loop = PollLoop()
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      var ended = false
      loop.watch(master, for: .readable) { _ in
        let count = (try? buffer.withUnsafeMutableBytes { try master.read(into: $0) }) ?? 0
        bytes += buffer[..<count]
        ended = count == 0  // the port side was closed
      }
      while !ended, try loop.runOnce(timeout: .milliseconds(100)) > 0 {}
      return bytes
    }

    func answer(_ bytes: [UInt8]) throws {
      try terminal?.master.writeAll(bytes)
    }
  }

  static let logger = Logger(
    output: .standardError, programName: "scoreboardd-test", minimumLevel: .error)

  static func frame(_ text: String, brightness: Int = 8) -> Frame {
    Frame(cells: try! SegmentFont.cells(for: text), brightness: brightness)
  }

  static func s7s(on port: PluggablePort, baud: Int = 9600) -> SerialDisplay {
    SerialDisplay(
      name: "main", path: port.link, settings: SerialSettings(baudRate: baud),
      encoder: SparkFunSerial7Segment(), logger: logger, at: .zero)
  }

  static func segments(_ emulator: SerialSevenSegmentEmulator) -> [UInt8] {
    emulator.digits.map { glyph in
      if case .segments(let bits) = glyph { bits } else { 0xFF }
    }
  }

  static func segments(_ text: String) -> [UInt8] {
    try! SegmentFont.cells(for: text).map { $0.rawValue & 0x7F }
  }

  @Test func theFirstFrameInitialisesTheModule() throws {
    let port = try PluggablePort()
    let display = Self.s7s(on: port)
    #expect(display.isOnline)
    display.show(Self.frame("12 7"), at: .zero)
    var emulator = SerialSevenSegmentEmulator()
    let bytes = try port.received()
    emulator.receive(bytes)
    #expect(bytes.first == 0x76, "clear first")
    #expect(Self.segments(emulator) == Self.segments("12 7"))
    #expect(emulator.brightness == 53)
    display.shutdown(showing: nil)
  }

  @Test func framesFasterThanTheWireAreCoalescedToTheLatest() throws {
    let port = try PluggablePort()
    let display = Self.s7s(on: port, baud: 1200)
    display.show(Self.frame("0000"), at: .zero)
    // 13 bytes of initialisation at 1200 baud keep the wire busy for 108.3 ms.
    let wireFree = Instant(nanoseconds: SerialSettings(baudRate: 1200).wireTime(forBytes: 13))
    for value in 1...500 {
      let text = String(value)
      display.show(
        Self.frame(String(repeating: " ", count: 4 - text.count) + text), at: .milliseconds(1))
    }
    #expect(display.waitingFor.deadline == wireFree, "the next frame waits for the wire")
    var emulator = SerialSevenSegmentEmulator()
    let first = try port.received()
    #expect(first.count == 13, "only the first frame went out while the wire was busy")
    display.service([], at: wireFree)
    let second = try port.received()
    emulator.receive(first + second)
    #expect(Self.segments(emulator) == Self.segments(" 500"))
    #expect(second.count == 4, "one update, to the latest frame: two changed digits")
    #expect(display.waitingFor.deadline == nil, "nothing more to send")
    display.shutdown(showing: nil)
  }

  /// A module whose power was cut while its port stayed open cannot be told from one
  /// that works: every `reinitializeInterval` all it shows is sent again, with the next
  /// frame, or when the daemon asks on a wakeup it makes anyway (`refreshIfDue`); the
  /// refresh never sets a wakeup of its own.
  @Test func everythingShownIsSentAgainEveryReinitialisationInterval() throws {
    let port = try PluggablePort()
    let display = SerialDisplay(
      name: "main", path: port.link, settings: SerialSettings(baudRate: 9600),
      encoder: SparkFunSerial7Segment(), logger: Self.logger,
      reinitializeInterval: .seconds(60), at: .zero)
    let second: Int64 = 1_000
    display.show(Self.frame("  12"), at: .zero)
    #expect(try port.received().count == 13, "initialised")
    display.show(Self.frame("  13"), at: .milliseconds(30 * second))
    #expect(try port.received().count == 2, "the change alone, within the interval")
    display.refreshIfDue(at: .milliseconds(59 * second))
    #expect(try port.received().isEmpty, "not due yet")
    #expect(display.waitingFor.deadline == nil)

    // The module loses its power; the first frame after the interval brings it all back.
    var powerCycled = SerialSevenSegmentEmulator()
    display.show(Self.frame("  14"), at: .milliseconds(61 * second))
    powerCycled.receive(try port.received())
    #expect(Self.segments(powerCycled) == Self.segments("  14"))
    #expect(powerCycled.points == 0)
    #expect(powerCycled.brightnessCommands == 0, "the brightness is not written to EEPROM again")

    // Idle: the refresh goes out when the daemon asks, a minute after the last one.
    display.refreshIfDue(at: .milliseconds(120 * second))
    #expect(try port.received().isEmpty)
    var again = SerialSevenSegmentEmulator()
    display.refreshIfDue(at: .milliseconds(121 * second))
    again.receive(try port.received())
    #expect(Self.segments(again) == Self.segments("  14"))
    #expect(again.brightnessCommands == 0)
    #expect(display.waitingFor.deadline == nil, "nothing more to send")
    display.shutdown(showing: nil)
  }

  @Test func withoutAReinitialisationIntervalNothingIsSentAgain() throws {
    let port = try PluggablePort()
    let display = Self.s7s(on: port)
    display.show(Self.frame("  12"), at: .zero)
    #expect(try port.received().count == 13)
    display.refreshIfDue(at: .milliseconds(3_600_000))
    #expect(try port.received().isEmpty)
    display.show(Self.frame("  13"), at: .milliseconds(7_200_000))
    #expect(try port.received().count == 2, "the change alone")
    display.shutdown(showing: nil)
  }

  @Test func aPortThatHangsUpIsReopenedAndTheModuleReinitialised() throws {
    let port = try PluggablePort()
    let display = Self.s7s(on: port)
    display.show(Self.frame("12 7"), at: .zero)
    _ = try port.received()

    port.unplug()
    display.service([.hangUp], at: .milliseconds(1_000))
    #expect(!display.isOnline)
    #expect(display.waitingFor.descriptor == nil, "a dead port is not polled")
    #expect(display.waitingFor.deadline == .milliseconds(1_250))

    display.show(Self.frame("13 7"), at: .milliseconds(1_100))
    display.service([], at: .milliseconds(1_250))
    #expect(!display.isOnline, "still unplugged: the next try backs off")
    #expect(display.waitingFor.deadline == .milliseconds(1_750))

    try port.plug()
    display.service([], at: .milliseconds(1_750))
    #expect(display.isOnline)
    var emulator = SerialSevenSegmentEmulator()
    let bytes = try port.received()
    emulator.receive(bytes)
    #expect(bytes.first == 0x76, "a module that comes back is cleared and fully redrawn")
    #expect(Self.segments(emulator) == Self.segments("13 7"), "with the latest frame")
    #expect(emulator.brightness == 53)
    display.shutdown(showing: nil)
  }

  @Test func retryDelaysDoubleUpToFiveSeconds() {
    let delays = (0..<8).map { SerialDisplay.retryDelay(attempt: $0).milliseconds }
    #expect(delays == [250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000])
  }

  @Test func unansweredFramesAreResentThenTheBoardCountsAsOffline() throws {
    let port = try PluggablePort()
    let acknowledgement = Acknowledgement(timeout: .milliseconds(100), retries: 2, address: 3)
    let display = SerialDisplay(
      name: "board", path: port.link, settings: SerialSettings(baudRate: 115_200),
      encoder: ControllerFrameProtocol(address: 3, acknowledgement: acknowledgement),
      logger: Self.logger, at: .zero)
    display.show(Self.frame("12 7"), at: .zero)
    var receiver = SerialFrameReceiver()
    receiver.receive(try port.received())
    #expect(receiver.frames.count == 1)
    let firstDeadline = try #require(display.waitingFor.deadline)
    #expect(firstDeadline > .milliseconds(100) && firstDeadline < .milliseconds(102))

    display.service([], at: .milliseconds(200))
    display.service([], at: .milliseconds(400))
    receiver.receive(try port.received())
    #expect(receiver.frames.count == 3, "sent three times in all")
    #expect(display.isOnline)
    display.service([], at: .milliseconds(600))
    #expect(!display.isOnline, "no answer after the last retry")

    display.service([], at: .milliseconds(850))
    receiver.receive(try port.received())
    #expect(receiver.frames.count == 4, "tried again after the back-off")
    try port.answer([0x06, 0x03])
    display.service([.readable], at: .milliseconds(860))
    #expect(display.isOnline, "the answer brings it back")
    #expect(receiver.frames.allSatisfy { $0.cells == Self.segments("12 7") })
    display.shutdown(showing: nil)
  }

  @Test func aRejectedFrameIsSentAgain() throws {
    let port = try PluggablePort()
    let acknowledgement = Acknowledgement(timeout: .milliseconds(100), retries: 3, address: 0)
    let display = SerialDisplay(
      name: "board", path: port.link, settings: SerialSettings(baudRate: 115_200),
      encoder: ControllerFrameProtocol(address: 0, acknowledgement: acknowledgement),
      logger: Self.logger, at: .zero)
    display.show(Self.frame("1"), at: .zero)
    _ = try port.received()
    try port.answer([0x15, 0x00])
    display.service([.readable], at: .milliseconds(5))
    var receiver = SerialFrameReceiver()
    receiver.receive(try port.received())
    #expect(receiver.frames.count == 1, "resent at once after a NAK")
    try port.answer([0x06, 0x00])
    display.service([.readable], at: .milliseconds(10))
    display.show(Self.frame("2"), at: .milliseconds(20))
    receiver.receive(try port.received())
    #expect(receiver.frames.last?.cells == Self.segments("2"), "the next frame follows the answer")
    display.shutdown(showing: nil)
  }

  @Test func shutdownSendsTheFinalFrame() throws {
    let port = try PluggablePort()
    let display = Self.s7s(on: port)
    display.show(Self.frame("12 7"), at: .zero)
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(try port.received())
    var blank = Self.frame("12 7")
    blank.isBlank = true
    display.shutdown(showing: blank)
    emulator.receive(try port.received())
    #expect(Self.segments(emulator) == [0, 0, 0, 0])
  }

  @Test func aMissingPortIsRetriedNotFatal() {
    let display = SerialDisplay(
      name: "main", path: "/nonexistent/ttyUSB9", settings: SerialSettings(),
      encoder: SparkFunSerial7Segment(), logger: Self.logger, at: .zero)
    #expect(!display.isOnline)
    #expect(display.waitingFor.deadline == .milliseconds(250))
    display.show(Self.frame("1"), at: .milliseconds(10))
    display.shutdown(showing: nil)
  }
}
