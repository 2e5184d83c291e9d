import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import TestSupport
import Testing

/// The buttons of a TM1638 board read as a keypad through the board's driver on fake
/// lines, the independent decoder playing the chip and its buttons.
@Suite struct TM1638BoardTests {
  /// A board whose buttons are read every 20 ms, on fake lines with a chip.
  struct Bench {
    let board: TM1638Board
    let backend: FakeGPIOBackend
    let chip: TM1638Chip

    init(
      buttons: TM1638Board.Buttons = TM1638Board.Buttons(keys: keys),
      logger: Logger = GPIOFixtures.quietLogger, held: Set<Int> = []
    ) throws {
      backend = FakeGPIOBackend()
      board = TM1638Board(
        name: "board", addresses: [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")],
        encoder: TM1638Protocol(cellCount: 8, bitDelay: .zero, reinitializeInterval: nil),
        buttons: buttons, backend: backend, logger: logger, at: .zero, longestInlineWait: nil)
      chip = TM1638Chip(on: try #require(backend.requests.first))
      chip.decoder.pressed = held
      board.show(GPIOFixtures.frame("12345678"), at: .zero)
      #expect(board.service(at: .zero) == [], "the first read is the state")
    }

    /// The buttons held from now on, S1 to S8 as 1 to 8.
    func hold(_ buttons: Set<Int>) {
      chip.decoder.pressed = buttons
    }

    /// Lets the loop run the board at `ms` milliseconds: its display, then its keys.
    func run(at ms: Int64) -> [KeyEvent] {
      let now = Instant.milliseconds(ms)
      board.service([], at: now)
      return board.service(at: now)
    }
  }

  static let keys = (0..<8).map { Key("BTN_\($0)")! }

  static func event(_ name: String, _ kind: KeyEvent.Kind, at ms: Int64, long: Bool = false)
    -> KeyEvent
  {
    KeyEvent(keypad: "board", key: Key(name, long: long)!, kind: kind, time: .milliseconds(ms))
  }

  @Test(arguments: 1...8) func eachButtonSendsItsKey(button: Int) throws {
    let bench = try Bench()
    bench.hold([button])
    #expect(bench.run(at: 20) == [], "seen once: not yet")
    #expect(bench.run(at: 40) == [Self.event("BTN_\(button - 1)", .press, at: 20)])
    bench.hold([])
    _ = bench.run(at: 60)
    #expect(bench.run(at: 80) == [Self.event("BTN_\(button - 1)", .release, at: 60)])
    bench.chip.catchUp()
    #expect(bench.chip.decoder.violations.isEmpty)
    #expect(bench.chip.decoder.keyReads == 5)
  }

  @Test func buttonsAreReadEveryScanIntervalFromTheLastRead() throws {
    let bench = try Bench()
    #expect(bench.board.waitingFor == DeviceWait(deadline: .milliseconds(20)))
    _ = bench.run(at: 23)
    #expect(bench.board.waitingFor == DeviceWait(deadline: .milliseconds(43)))
    _ = bench.run(at: 30)
    bench.chip.catchUp()
    #expect(bench.chip.decoder.keyReads == 2, "not due yet")
  }

  @Test func aBounceShorterThanTheDebounceIsNotAPress() throws {
    let bench = try Bench()
    bench.hold([3])
    _ = bench.run(at: 20)
    bench.hold([])
    #expect(bench.run(at: 40) == [])
    #expect(bench.run(at: 60) == [])
  }

  @Test func twoButtonsAtOnceAreBothReported() throws {
    let bench = try Bench()
    bench.hold([2, 7])
    _ = bench.run(at: 20)
    #expect(
      bench.run(at: 40) == [
        Self.event("BTN_1", .press, at: 20), Self.event("BTN_6", .press, at: 20),
      ])
  }

  @Test func aButtonHeldAtStartReportsOnlyItsRelease() throws {
    let bench = try Bench(held: [1])
    #expect(bench.run(at: 20) == [])
    bench.hold([])
    _ = bench.run(at: 40)
    #expect(bench.run(at: 60) == [Self.event("BTN_0", .release, at: 40)])
  }

  @Test func aLongPressIsReportedAtItsHoldTime() throws {
    let bench = try Bench(
      buttons: TM1638Board.Buttons(
        keys: Self.keys, longPress: .milliseconds(500), longPressKeys: [Key("BTN_0")!]))
    bench.hold([1])
    _ = bench.run(at: 20)
    #expect(bench.run(at: 40) == [])
    #expect(bench.board.waitingFor == DeviceWait(deadline: .milliseconds(60)), "the next read")
    var events: [KeyEvent] = []
    for ms in stride(from: Int64(60), through: 540, by: 20) {
      events += bench.run(at: ms)
    }
    #expect(events == [Self.event("BTN_0", .press, at: 520, long: true)])
    bench.hold([])
    _ = bench.run(at: 560)
    #expect(bench.run(at: 580) == [], "a long press's release reports nothing")
  }

  @Test func aKeyReadWaitsForTheFrameOnTheWire() throws {
    let backend = FakeGPIOBackend()
    let clock = SteppedTimeSource(at: .zero)
    let board = TM1638Board(
      name: "board", addresses: [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")],
      encoder: TM1638Protocol(cellCount: 8, bitDelay: .microseconds(10)),
      buttons: TM1638Board.Buttons(keys: Self.keys), backend: backend,
      logger: GPIOFixtures.quietLogger, at: .zero, clock: clock)
    let chip = TM1638Chip(on: try #require(backend.requests.first))
    board.show(GPIOFixtures.frame("12345678"), at: .zero)
    #expect(board.isPlaying)
    // The loop comes back at each deadline; a frame is given in the middle of a read.
    var newFrameGiven = false
    while let deadline = board.waitingFor.deadline, deadline < .milliseconds(30) {
      clock.time = max(clock.time, deadline)
      board.service([], at: clock.time)
      _ = board.service(at: clock.time)
      chip.catchUp()
      if chip.decoder.transactions.count == 3, board.isPlaying, !newFrameGiven {
        board.show(GPIOFixtures.frame("12345679"), at: clock.time)
        newFrameGiven = true
      }
    }
    chip.catchUp()
    #expect(
      chip.decoder.transactions.map(\.first) == [0x40, 0xC0, 0x8C, 0x42, 0x44, 0xCE, 0x42],
      "the frame, a read, the frame given meanwhile, the next read")
    #expect(chip.decoder.violations.isEmpty)
  }

  @Test func aBoardThatDoesNotAnswerIsOfflineAndScannedNoMoreUntilItComesBack() throws {
    let log = try LogCapture()
    let backend = FakeGPIOBackend()
    let board = TM1638Board(
      name: "board", addresses: [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")],
      encoder: TM1638Protocol(cellCount: 8, bitDelay: .zero, reinitializeInterval: nil),
      buttons: TM1638Board.Buttons(keys: Self.keys), backend: backend, logger: log.logger,
      at: .zero, longestInlineWait: nil)
    let lines = try #require(backend.requests.first)
    lines.inputModel = GPIOFixtures.missingChip
    board.show(GPIOFixtures.frame("12345678"), at: .zero)
    #expect(!board.isOnline)
    #expect(log.lines.contains { $0.contains("display board: no answer to the key read; offline") })
    let retry = try #require(board.waitingFor.deadline)
    #expect(retry > .milliseconds(20), "the display's back-off, not the next read")
    let reads = lines.records.count
    board.service([], at: retry - .milliseconds(1))
    #expect(lines.records.count == reads, "nothing on the wire while offline")

    let chip = TM1638Chip(on: lines)
    board.service([], at: retry)
    #expect(board.isOnline)
    chip.catchUp()
    #expect(
      chip.decoder.transactions.suffix(4).map(\.first) == [0x40, 0xC0, 0x8C, 0x42],
      "re-initialised, then read")
    #expect(log.lines.contains { $0.contains("display board: the device answers again") })
    #expect(board.service(at: retry) == [])
  }

  @Test func withoutButtonsTheBoardIsNeverRead() throws {
    let backend = FakeGPIOBackend()
    let board = TM1638Board(
      name: "board", addresses: [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")],
      encoder: TM1638Protocol(cellCount: 8, bitDelay: .zero, reinitializeInterval: nil),
      buttons: nil, backend: backend, logger: GPIOFixtures.quietLogger, at: .zero,
      longestInlineWait: nil)
    let chip = TM1638Chip(on: try #require(backend.requests.first))
    board.show(GPIOFixtures.frame("12345678"), at: .zero)
    chip.catchUp()
    #expect(board.waitingFor == .nothing, "an idle board makes no wakeups")
    #expect(chip.decoder.keyReads == 0)
  }

  @Test func closingTheKeypadStopsTheReadsButNotTheDisplay() throws {
    let bench = try Bench()
    bench.board.close()
    #expect(bench.board.waitingFor.deadline == nil)
    bench.board.show(GPIOFixtures.frame("87654321"), at: .milliseconds(30))
    bench.chip.catchUp()
    #expect(bench.chip.decoder.keyReads == 1)
    #expect(bench.chip.decoder.digits == GPIOFixtures.frame("87654321").cells.map(\.rawValue))
  }
}
