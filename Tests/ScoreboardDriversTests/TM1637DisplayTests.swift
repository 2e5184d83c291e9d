import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import TestSupport
import Testing

/// The TM1637 encoder played through the GPIO display on fake lines, judged by the
/// independent decoder.
@Suite struct TM1637DisplayTests {
  /// A display on a chip that answers, a capture of its lines and a chip at power-up.
  struct Bench {
    let display: GPIOSegmentDisplay
    let lines: FakeGPIOLines
    let capture: LineCapture
    var chip = TM1637Decoder()

    init(_ encoder: TM1637Protocol) throws {
      let (display, backend) = GPIOFixtures.display(encoder)
      self.display = display
      lines = try #require(backend.requests.first)
      lines.inputModel = GPIOFixtures.answeringChip
      capture = LineCapture(lines)
    }

    /// Shows `frame` and returns the transactions it took.
    mutating func show(_ frame: Frame, at now: Instant = .zero) -> [[UInt8]] {
      let before = chip.transactions.count
      display.show(frame, at: now)
      chip.receive(capture.newChanges())
      return Array(chip.transactions[before...])
    }
  }

  /// The grid bytes of `text` on cells 0, 1, 2 ...
  static func grids(_ text: String) -> [UInt8] {
    GPIOFixtures.frame(text).cells.map(\.rawValue)
  }

  @Test func theLinesAreRequestedAsTheModuleNeedsThem() throws {
    let (_, backend) = GPIOFixtures.display(TM1637Protocol(cellCount: 4))
    let lines = try #require(backend.requests.first)
    #expect(lines.consumer == "scoreboardd")
    #expect(lines.addresses == [.name("GPIO17"), .name("GPIO18")])
    #expect(lines.settings.map(\.direction) == [.output, .output])
    #expect(lines.settings.map(\.drive) == [.pushPull, .openDrain])
    #expect(lines.settings.map(\.initialValue) == [true, true], "the bus idles high")
  }

  @Test func typingAScore() throws {
    var bench = try Bench(TM1637Protocol(cellCount: 4, bitDelay: .zero))
    let first = bench.show(GPIOFixtures.frame(" 0 0", brightness: 15))
    #expect(first == [[0x40], [0xC0, 0x00, 0x3F, 0x00, 0x3F], [0x8F]], "the full frame")
    #expect(bench.chip.isDisplayOn)
    #expect(bench.chip.brightness == 7)

    #expect(bench.show(GPIOFixtures.frame(" 1 0", brightness: 15)) == [[0x44], [0xC1, 0x06]])
    #expect(
      bench.show(GPIOFixtures.frame("12 0", brightness: 15)) == [[0x40], [0xC0, 0x06, 0x5B]],
      "two neighbouring grids in one auto-increment run")
    #expect(
      bench.show(GPIOFixtures.frame("21 3", brightness: 15))
        == [[0x40], [0xC0, 0x5B, 0x06, 0x00, 0x4F]],
      "three grids out of a run of four: auto-increment is shorter")
    #expect(
      bench.show(GPIOFixtures.frame("11 4", brightness: 15)) == [
        [0x44], [0xC0, 0x06], [0xC3, 0x66],
      ],
      "two grids apart: fixed addresses, so only they are sent")
    #expect(bench.show(GPIOFixtures.frame("11 4", brightness: 15)) == [], "nothing changed")
    #expect(bench.chip.grids == Self.grids("11 4") + [0, 0])
    #expect(bench.chip.violations.isEmpty)
    #expect(bench.lines.values == [true, true], "the bus is left idle")
    #expect(bench.lines.settings[1].direction == .output)
  }

  @Test func brightnessAndBlankingSendOnlyTheDisplayControl() throws {
    var bench = try Bench(TM1637Protocol(cellCount: 4, bitDelay: .zero))
    _ = bench.show(GPIOFixtures.frame("12 7", brightness: 8))
    #expect(bench.chip.brightness == 4)
    #expect(bench.show(GPIOFixtures.frame("12 7", brightness: 0)) == [[0x88]])
    #expect(bench.show(GPIOFixtures.frame("12 7", brightness: 5)) == [[0x8A]])
    #expect(bench.show(GPIOFixtures.frame("12 7", brightness: 5, isBlank: true)) == [[0x80]])
    #expect(!bench.chip.isDisplayOn)
    #expect(bench.chip.grids == Self.grids("12 7") + [0, 0], "blanking keeps the digits")
    #expect(bench.show(GPIOFixtures.frame("12 7", brightness: 5)) == [[0x8A]])
    #expect(bench.chip.isDisplayOn)
    #expect(bench.chip.violations.isEmpty)
  }

  @Test func decimalPointsAreBit7OfTheirGrid() throws {
    var bench = try Bench(TM1637Protocol(cellCount: 4, bitDelay: .zero))
    _ = bench.show(GPIOFixtures.frame("1.2 3."))
    #expect(bench.chip.grids == [0x86, 0x5B, 0x00, 0xCF, 0, 0])
  }

  @Test func withoutAClockTheColonOfAClockModuleIsASeparator() throws {
    var bench = try Bench(TM1637Protocol(cellCount: 4, colon: true, bitDelay: .zero))
    _ = bench.show(GPIOFixtures.frame("1.2 3."))
    #expect(bench.chip.grids == [0x06, 0xDB, 0x00, 0x4F, 0, 0])
    #expect(bench.show(GPIOFixtures.frame("1 23")) == [[0x40], [0xC1, 0x80, 0x5B]])
    #expect(bench.chip.grids == [0x06, 0x80, 0x5B, 0x4F, 0, 0], "the colon stays lit")
  }

  /// A game clock on a clock module: the colon on bit 7 of grid 1 shows the clock's colon
  /// after cell 1, and only it; the frame's points never show.
  @Test func aClockModuleShowsTheClocksColon() throws {
    var bench = try Bench(TM1637Protocol(cellCount: 4, colon: true, bitDelay: .zero))
    _ = bench.show(GPIOFixtures.frame("12.34", colons: [1]))
    #expect(bench.chip.grids == [0x06, 0xDB, 0x4F, 0x66, 0, 0], "12:34")
    #expect(
      bench.show(GPIOFixtures.frame("12.33", colons: [1])) == [[0x44], [0xC3, 0x4F]],
      "the colon stays lit")
    _ = bench.show(GPIOFixtures.frame(" 53.8", colons: []))
    #expect(bench.chip.grids == [0x00, 0x6D, 0x4F, 0x7F, 0, 0], "tenths: no colon, no point")
    _ = bench.show(GPIOFixtures.frame("1.2.34", colons: [0]))
    #expect(bench.chip.grids == [0x06, 0x5B, 0x4F, 0x66, 0, 0], "a colon after cell 0")
    _ = bench.show(GPIOFixtures.frame("12.34", isBlank: true, colons: [1]))
    #expect(!bench.chip.isDisplayOn)
    #expect(bench.chip.grids == [0x06, 0xDB, 0x4F, 0x66, 0, 0], "blanking keeps the grids")
    _ = bench.show(GPIOFixtures.frame("21 7"))
    #expect(bench.chip.isDisplayOn)
    #expect(bench.chip.grids == [0x5B, 0x86, 0x00, 0x07, 0, 0], "no clock: a separator")
    #expect(bench.chip.violations.isEmpty)
  }

  /// A module with decimal points shows a clock as the frame's points: `12.34`, `53.8`.
  @Test(
    arguments: [
      ("12.34", [1], [0x06, 0xDB, 0x4F, 0x66]),
      (" 53.8", [], [0x00, 0x6D, 0xCF, 0x7F]),
      ("12.34", nil, [0x06, 0xDB, 0x4F, 0x66]),
    ] as [(String, [Int]?, [UInt8])])
  func aModuleWithPointsShowsAClockAsItsPoints(
    text: String, colons: [Int]?, grids: [UInt8]
  ) throws {
    var bench = try Bench(TM1637Protocol(cellCount: 4, bitDelay: .zero))
    _ = bench.show(GPIOFixtures.frame(text, colons: colons))
    #expect(bench.chip.grids == grids + [0, 0])
  }

  @Test func sixDigitModulesMapCellsToTheirGrids() throws {
    var bench = try Bench(
      TM1637Protocol(cellCount: 6, gridOrder: [2, 1, 0, 5, 4, 3], bitDelay: .zero))
    _ = bench.show(GPIOFixtures.frame("123456"))
    #expect(bench.chip.grids == [0x4F, 0x5B, 0x06, 0x7D, 0x6D, 0x66])
    #expect(bench.show(GPIOFixtures.frame("123457")) == [[0x44], [0xC3, 0x07]])
    #expect(bench.chip.violations.isEmpty)
  }

  @Test func theInitialisationTakesDIOBackThenStartsWithTheDefaultBitDelay() {
    var encoder = TM1637Protocol(cellCount: 4)
    let steps = encoder.initialize(showing: GPIOFixtures.frame("1234"))
    #expect(
      Array(steps.prefix(5)) == [
        .drive(line: 1, value: true), .set(line: 1, value: false), .delay(nanoseconds: 100_000),
        .set(line: 0, value: false), .delay(nanoseconds: 100_000),
      ])
    let delays = steps.compactMap { step -> Int64? in
      if case .delay(let nanoseconds) = step { nanoseconds } else { nil }
    }
    #expect(Set(delays) == [100_000])
  }
}
