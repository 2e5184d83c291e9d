import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import TestSupport
import Testing

/// The MAX7219 encoder played through the GPIO display on fake lines, judged by the
/// independent chain decoder.
@Suite struct MAX7219DisplayTests {
  /// A display, a capture of its lines and a chain at power-up.
  struct Bench {
    let display: GPIOSegmentDisplay
    let lines: FakeGPIOLines
    let capture: LineCapture
    var chain: MAX7219ChainDecoder

    init(_ encoder: MAX7219Protocol) throws {
      let (display, backend) = GPIOFixtures.display(encoder)
      self.display = display
      lines = try #require(backend.requests.first)
      capture = LineCapture(lines)
      chain = MAX7219ChainDecoder(chipCount: encoder.chipCount)
    }

    /// Shows `frame` and returns how many registers each chip took.
    mutating func show(_ frame: Frame, at now: Instant = .zero) -> [Int] {
      let before = chain.chips.map(\.writes)
      display.show(frame, at: now)
      chain.receive(capture.newChanges())
      return zip(chain.chips, before).map { $0.writes - $1 }
    }

    /// What each chip shows, DIG0 first, as text through `MAX7219DisplayTests.font`, a
    /// lit point (D7) as a `.` after its digit.
    var shown: [String] {
      chain.chips.map { chip in
        chip.shownDigits.map { digit in
          guard let digit, let text = font[digit & 0x7F] else { return "?" }
          return digit & 0x80 != 0 ? text + "." : text
        }.joined()
      }
    }
  }

  /// The no-decode patterns of the digits without their point (D7 = DP, D6 = A ... D0 =
  /// G), as the datasheet's table and the LedControl library have them.
  static let font: [UInt8: String] = [
    0x7E: "0", 0x30: "1", 0x6D: "2", 0x79: "3", 0x33: "4", 0x5B: "5", 0x5F: "6", 0x70: "7",
    0x7F: "8", 0x7B: "9", 0x00: " ",
  ]

  @Test func theLinesIdleWithLoadHigh() throws {
    let (_, backend) = GPIOFixtures.display(MAX7219Protocol(cellCount: 8))
    let lines = try #require(backend.requests.first)
    #expect(lines.settings.map(\.initialValue) == [false, false, true])
    #expect(lines.settings.allSatisfy { $0.direction == .output && $0.drive == .pushPull })
  }

  @Test func theInitialisationSetsEveryRegister() throws {
    var bench = try Bench(MAX7219Protocol(cellCount: 8))
    #expect(bench.show(GPIOFixtures.frame("12345678", brightness: 11)) == [13])
    let chip = bench.chain.chips[0]
    #expect(!chip.isShutdown)
    #expect(!chip.isDisplayTest)
    #expect(chip.decodeMode == 0)
    #expect(chip.scanLimit == 7)
    #expect(chip.intensity == 11)
    #expect(bench.shown == ["87654321"], "DIG0 is the rightmost digit")
    #expect(bench.chain.violations.isEmpty)
  }

  @Test(arguments: [
    (
      MAX7219Protocol(cellCount: 4, digitOrder: .leftToRight), "1234", ["1234"]
    ),
    (
      MAX7219Protocol(cellCount: 12), "123456789012", ["87654321", "2109"]
    ),
    (
      MAX7219Protocol(cellCount: 16, digitOrder: .leftToRight), "1234567890123456",
      ["12345678", "90123456"]
    ),
    (
      MAX7219Protocol(cellCount: 16, chainOrder: .rightmostFirst), "1234567890123456",
      ["65432109", "87654321"]
    ),
    (
      MAX7219Protocol(cellCount: 16, digitsPerChip: 4, digitOrder: .leftToRight),
      "1234567890123456", ["1234", "5678", "9012", "3456"]
    ),
    (
      MAX7219Protocol(
        cellCount: 14, digitsPerChip: 4, digitOrder: .leftToRight, chainOrder: .rightmostFirst),
      "12345678901234", ["1234", "7890", "3456", "12"]
    ),
  ])
  func chainsSplitTheCellsAcrossTheirChips(
    encoder: MAX7219Protocol, text: String, expected: [String]
  ) throws {
    var bench = try Bench(encoder)
    _ = bench.show(GPIOFixtures.frame(text))
    #expect(bench.shown == expected)
    #expect(bench.chain.chips.map(\.scanLimit) == expected.map { UInt8($0.count - 1) })
    #expect(bench.chain.violations.isEmpty)
  }

  /// A MAX7219 has no colon: a game clock's colon is the point the frame lights on the
  /// cell before it (`12.34`), and its tenths are a point too (`53.8`).
  @Test(
    arguments: [
      (MAX7219Protocol(cellCount: 4, digitOrder: .leftToRight), "12.34", [1], ["12.34"]),
      (MAX7219Protocol(cellCount: 4), "12.34", [1], ["432.1"]),
      (MAX7219Protocol(cellCount: 4, digitOrder: .leftToRight), " 53.8", [], [" 53.8"]),
      (MAX7219Protocol(cellCount: 4), " 53.8", [], ["83.5 "]),
      (
        MAX7219Protocol(
          cellCount: 8, digitsPerChip: 4, digitOrder: .leftToRight, chainOrder: .rightmostFirst),
        "12 712.34", [5], ["12.34", "12 7"]
      ),
      (MAX7219Protocol(cellCount: 8), "12 712.34", [5], ["432.17 21"]),
    ] as [(MAX7219Protocol, String, [Int], [String])])
  func aClockShowsItsColonAsThePointBeforeIt(
    encoder: MAX7219Protocol, text: String, colons: [Int], expected: [String]
  ) throws {
    var bench = try Bench(encoder)
    _ = bench.show(GPIOFixtures.frame(text, colons: colons))
    #expect(bench.shown == expected)
    #expect(bench.chain.violations.isEmpty)
  }

  @Test func typingAScoreSendsOnlyTheChangedDigits() throws {
    var bench = try Bench(MAX7219Protocol(cellCount: 16))
    _ = bench.show(GPIOFixtures.frame("   0   0        "))
    let pulses = bench.chain.loadPulses
    #expect(bench.show(GPIOFixtures.frame("   1   0        ")) == [1, 0])
    #expect(bench.show(GPIOFixtures.frame("  12   0        ")) == [2, 0])
    #expect(
      bench.show(GPIOFixtures.frame("  12   0       1")) == [0, 1],
      "the other chip's change")
    #expect(bench.show(GPIOFixtures.frame("  13   1       2")) == [2, 1])
    #expect(
      bench.chain.loadPulses == pulses + 6,
      "a pulse per change of the chip with the most changes")
    #expect(bench.show(GPIOFixtures.frame("  13   1       2")) == [0, 0], "nothing changed")
    #expect(bench.chain.loadPulses == pulses + 6)
    #expect(bench.shown == ["1   31  ", "2       "])
    #expect(bench.chain.violations.isEmpty)
  }

  @Test func brightnessBlankingAndPoints() throws {
    var bench = try Bench(MAX7219Protocol(cellCount: 4))
    _ = bench.show(GPIOFixtures.frame("1.0 0", brightness: 3))
    #expect(bench.shown == ["0 01."])
    #expect(bench.show(GPIOFixtures.frame("1.0 0", brightness: 12)) == [1])
    #expect(bench.chain.chips[0].intensity == 12)
    #expect(bench.show(GPIOFixtures.frame("1.0 0", brightness: 12, isBlank: true)) == [1])
    #expect(bench.chain.chips[0].isShutdown)
    #expect(bench.chain.chips[0].digits.prefix(4) == [0x7E, 0x00, 0x7E, 0xB0], "digits kept")
    #expect(bench.chain.chips[0].scanLimit == 3, "the scan limit never blanks")
    #expect(bench.show(GPIOFixtures.frame("1.0 0", brightness: 12)) == [1])
    #expect(bench.shown == ["0 01."])
    #expect(bench.chain.violations.isEmpty)
  }

  @Test func theChainIsReinitialisedPeriodicallyWithoutAWakeupOfItsOwn() throws {
    var bench = try Bench(MAX7219Protocol(cellCount: 8, reinitializeInterval: .seconds(60)))
    _ = bench.show(GPIOFixtures.frame("12345678"), at: .milliseconds(500))
    #expect(bench.display.refreshDueAt == .milliseconds(60_500))
    #expect(bench.display.waitingFor == .nothing, "the loop is not woken for it")
    _ = bench.show(GPIOFixtures.frame("12345679"), at: .milliseconds(30_000))
    #expect(bench.display.refreshDueAt == .milliseconds(60_500), "updates do not count")
    bench.display.refreshIfDue(at: .milliseconds(60_499))
    #expect(bench.capture.newChanges().isEmpty, "not due yet")

    // The chain lost power meanwhile: it is back in its power-up state.
    var afterGlitch = MAX7219ChainDecoder(chipCount: 1)
    bench.display.refreshIfDue(at: .milliseconds(60_500))
    afterGlitch.receive(bench.capture.newChanges())
    #expect(afterGlitch.chips[0].writes == 13, "every register again")
    #expect(!afterGlitch.chips[0].isShutdown)
    #expect(afterGlitch.chips[0].intensity == 8)
    #expect(afterGlitch.chips[0].shownDigits == [0x7B, 0x70, 0x5F, 0x5B, 0x33, 0x79, 0x6D, 0x30])
    #expect(bench.display.refreshDueAt == .milliseconds(120_500))
  }

  @Test func aFrameShownOnceTheReinitialisationIsDueCarriesIt() throws {
    var bench = try Bench(MAX7219Protocol(cellCount: 8, reinitializeInterval: .seconds(60)))
    _ = bench.show(GPIOFixtures.frame("12345678"), at: .zero)
    var afterGlitch = MAX7219ChainDecoder(chipCount: 1)
    bench.display.show(GPIOFixtures.frame("12345679"), at: .milliseconds(61_000))
    afterGlitch.receive(bench.capture.newChanges())
    #expect(afterGlitch.chips[0].writes == 14, "the changed digit, then every register")
    #expect(afterGlitch.chips[0].shownDigits == [0x7B, 0x70, 0x5F, 0x5B, 0x33, 0x79, 0x6D, 0x30])
    #expect(bench.display.refreshDueAt == .milliseconds(121_000))
  }

  @Test func aChainWithoutPeriodicReinitialisationWaitsForNothing() throws {
    let (display, _) = GPIOFixtures.display(
      MAX7219Protocol(cellCount: 8, reinitializeInterval: nil))
    display.show(GPIOFixtures.frame("12345678"), at: .zero)
    #expect(display.waitingFor == .nothing)
    #expect(display.refreshDueAt == nil)
  }
}
