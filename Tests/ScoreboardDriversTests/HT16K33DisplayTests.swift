import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings
import TestSupport
import Testing

/// HT16K33 backpacks driven through the real display driver on an in-memory bus, judged
/// by the independent chip decoder.
@Suite struct HT16K33DisplayTests {
  /// A backpack at 0x70 on `/dev/i2c-1`, the bus, and a chip at power-up.
  final class Bench {
    let bus = FakeI2CBackend(answering: [0x70])
    let log: LogCapture
    let display: HT16K33Display
    var chip = HT16K33Decoder()
    /// The transfers of the last `show` or `service`.
    private(set) var last: [FakeI2CBackend.Transfer] = []

    init(
      _ backpack: HT16K33Backpack = .sevenSegment, colon: Bool = false,
      reinitializeInterval: Duration? = .seconds(60)
    ) throws {
      log = try LogCapture()
      display = HT16K33Display(
        name: "main", bus: "/dev/i2c-1", address: 0x70, backpack: backpack, colon: colon,
        reinitializeInterval: reinitializeInterval, backend: bus, logger: log.logger)
    }

    func show(_ frame: Frame, at now: Instant = .zero) {
      display.show(frame, at: now)
      deliver()
    }

    func service(at now: Instant) {
      display.service([], at: now)
      deliver()
    }

    func refreshIfDue(at now: Instant) {
      display.refreshIfDue(at: now)
      deliver()
    }

    func shutdown(showing frame: Frame) {
      display.shutdown(showing: frame)
      deliver()
    }

    /// Gives the chip what the bus carried to it.
    private func deliver() {
      last = bus.takeTransfers(to: 0x70)
      for transfer in last {
        switch transfer {
        case .command(let byte): chip.receive(command: byte)
        case .block(let command, let data): chip.receive(command: command, data: data)
        }
      }
    }
  }

  static func frame(
    _ text: String, brightness: Int = 8, isBlank: Bool = false, colons: [Int]? = nil,
    characters: String? = nil
  ) -> Frame {
    Frame(
      cells: try! SegmentFont.cells(for: text), brightness: brightness, isBlank: isBlank,
      colons: colons, characters: characters.map(Array.init))
  }

  @Test func theInitialisationStartsTheChipAndWritesTheDigits() throws {
    let bench = try Bench()
    bench.show(Self.frame("12 7", brightness: 11))
    #expect(bench.chip.isOscillatorOn)
    #expect(bench.chip.isDisplayOn)
    #expect(bench.chip.blinking == 0)
    #expect(bench.chip.dimming == 11, "16 brightness levels, as the frame's")
    #expect(bench.chip.sevenSegmentText == "12 7")
    #expect(bench.chip.ramWrites.count == 16, "the whole RAM, unused bytes cleared")
    #expect(bench.chip.violations.isEmpty)
    #expect(bench.display.isOnline)
    #expect(bench.bus.openBuses == 0, "the bus is closed after each frame")
  }

  @Test func anUpdateSendsOnlyTheBytesThatChanged() throws {
    let bench = try Bench()
    bench.show(Self.frame("1200"))
    bench.chip.clearWrites()
    bench.show(Self.frame("1201"))
    #expect(bench.last == [.block(command: 8, data: [0x06])], "one digit: one byte")
    bench.show(Self.frame("1201"))
    #expect(bench.last.isEmpty, "nothing changed, nothing sent")
    bench.show(Self.frame("2202"))
    #expect(bench.chip.ramWrites.map(\.address) == [8, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    #expect(bench.chip.sevenSegmentText == "2202")
  }

  @Test func brightnessAndBlankingAreCommandsAlone() throws {
    let bench = try Bench()
    bench.show(Self.frame("88", brightness: 3))
    bench.show(Self.frame("88", brightness: 15))
    #expect(bench.last == [.command(0xEF)])
    bench.show(Self.frame("88", brightness: 15, isBlank: true))
    #expect(bench.last == [.command(0x80)])
    #expect(!bench.chip.isDisplayOn)
    #expect(bench.chip.sevenSegmentText == "88  ", "the RAM keeps its digits")
    bench.show(Self.frame("88", brightness: 15))
    #expect(bench.chip.isShowing)
  }

  @Test func aClocksColonIsTheColonAndNotThePoint() throws {
    let bench = try Bench()
    bench.show(Self.frame("12.34", colons: [1]))
    #expect(bench.chip.sevenSegmentText == "12:34")
    bench.show(Self.frame(" 53.8", colons: []))
    #expect(bench.chip.sevenSegmentText == " 53.8", "tenths: a point, no colon")
  }

  @Test(arguments: [(false, "1234"), (true, "12:34")])
  func theColonIsASeparatorOnlyWhenAskedWithoutAClock(colon: Bool, shown: String) throws {
    let bench = try Bench(colon: colon)
    bench.show(Self.frame("1234"))
    #expect(bench.chip.sevenSegmentText == shown)
  }

  @Test func alphanumericDigitsShowTheFramesCharacters() throws {
    let bench = try Bench(.alphanumeric)
    bench.show(Self.frame("    ", characters: "HOME"))
    #expect(
      bench.chip.alphanumericSegments == [
        ["B", "C", "E", "F", "G1", "G2"],  // H
        ["A", "B", "C", "D", "E", "F"],  // O
        ["B", "C", "E", "F", "H", "K"],  // M: the upper diagonals
        ["A", "D", "E", "F", "G1"],  // E
      ])
    #expect(bench.chip.isShowing)
  }

  @Test func alphanumericDigitsReadSevenSegmentCellsWhenTheFrameHasNoCharacters() throws {
    let bench = try Bench(.alphanumeric)
    bench.show(Self.frame("1.7-"))
    #expect(
      bench.chip.alphanumericSegments == [
        ["B", "C", "K", "DP"], ["A", "B", "C"], ["G1", "G2"], [],
      ])
  }

  @Test func aChipThatStopsAnsweringGoesOfflineOnceAndIsInitialisedWhenItAnswers() throws {
    let bench = try Bench()
    bench.show(Self.frame("1200"))
    bench.bus.answering = []
    bench.show(Self.frame("1201"), at: .milliseconds(1000))
    #expect(!bench.display.isOnline)
    let retry = try #require(bench.display.waitingFor.deadline)
    #expect(retry > .milliseconds(1000))
    bench.show(Self.frame("1202"), at: .milliseconds(1010))
    bench.service(at: retry)
    #expect(!bench.display.isOnline)
    let warnings = bench.log.lines.filter { $0.contains("offline, retrying") }
    #expect(warnings.count == 1, "logged once: \(warnings)")
    #expect(
      warnings.first?.contains("display main (0x70): no answer at 0x70 on /dev/i2c-1 (EREMOTEIO)")
        == true)
    bench.chip.powerCycle()
    bench.bus.answering = [0x70]
    let nextRetry = try #require(bench.display.waitingFor.deadline)
    #expect(nextRetry - retry > retry - .milliseconds(1000), "the back-off doubles")
    bench.service(at: nextRetry)
    #expect(bench.display.isOnline)
    #expect(bench.chip.isShowing, "fully initialised again")
    #expect(bench.chip.sevenSegmentText == "1202", "the latest frame")
    #expect(bench.log.lines.contains { $0.contains("answers again; re-initialised") })
  }

  @Test func aMissingBusIsOfflineWithAdviceAndFoundWhenItAppears() throws {
    let bench = try Bench()
    bench.bus.buses = []
    bench.show(Self.frame("1"))
    #expect(!bench.display.isOnline)
    #expect(bench.log.lines.contains { $0.contains("dtparam=i2c_arm=on") })
    bench.bus.buses = ["/dev/i2c-1"]
    bench.service(at: try #require(bench.display.waitingFor.deadline))
    #expect(bench.display.isOnline)
    #expect(bench.chip.sevenSegmentText == "1   ")
  }

  @Test func aChipThatLostPowerIsSetUpAgainByThePeriodicInitialisation() throws {
    let bench = try Bench(reinitializeInterval: .seconds(60))
    bench.show(Self.frame("42"))
    #expect(bench.display.refreshDueAt == .milliseconds(60000))
    #expect(bench.display.waitingFor == .nothing, "the loop is not woken for it")
    bench.chip.powerCycle()
    bench.refreshIfDue(at: .milliseconds(30000))
    #expect(bench.last.isEmpty, "not due yet")
    bench.refreshIfDue(at: .milliseconds(60000))
    #expect(bench.chip.isShowing)
    #expect(bench.chip.sevenSegmentText == "42  ")
    #expect(bench.display.refreshDueAt == .milliseconds(120_000))
  }

  @Test func aFrameShownOnceTheInitialisationIsDueCarriesIt() throws {
    let bench = try Bench(reinitializeInterval: .seconds(60))
    bench.show(Self.frame("42"))
    bench.chip.powerCycle()
    bench.show(Self.frame("43"), at: .milliseconds(61000))
    #expect(bench.last.count == 5, "the changed digit, then the whole chip: \(bench.last)")
    if case .block(let start, let data) = bench.last.first {
      #expect(start == 2 && data.count <= 2, "the second digit's RAM alone")
    } else {
      Issue.record("the change comes first: \(bench.last)")
    }
    #expect(bench.chip.isShowing)
    #expect(bench.chip.sevenSegmentText == "43  ")
    #expect(bench.display.refreshDueAt == .milliseconds(121_000))
  }

  @Test func withoutPeriodicInitialisationAnIdleDisplayWaitsForNothing() throws {
    let bench = try Bench(reinitializeInterval: nil)
    bench.show(Self.frame("42"))
    #expect(bench.display.waitingFor == .nothing)
    #expect(bench.display.refreshDueAt == nil)
  }

  @Test func theFinalFrameIsShownAtShutdown() throws {
    let bench = try Bench()
    bench.show(Self.frame("42"))
    bench.shutdown(showing: Self.frame("42", isBlank: true))
    #expect(bench.last == [.command(0x80)])
    #expect(!bench.chip.isDisplayOn)
    #expect(bench.bus.openBuses == 0)
  }
}
