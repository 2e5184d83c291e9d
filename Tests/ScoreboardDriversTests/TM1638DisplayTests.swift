import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import TestSupport
import Testing

/// The TM1638 encoder played through the board's driver on fake lines, judged by the
/// independent decoder.
@Suite struct TM1638DisplayTests {
  /// A board on fake lines, a chip on them, and the transactions each frame took.
  struct Bench {
    let board: TM1638Board
    let chip: TM1638Chip

    init(_ encoder: TM1638Protocol = TM1638Protocol(cellCount: 8, bitDelay: .zero)) throws {
      let backend = FakeGPIOBackend()
      board = TM1638Board(
        name: "board", addresses: [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")],
        encoder: encoder, buttons: nil, backend: backend, logger: GPIOFixtures.quietLogger,
        at: .zero, longestInlineWait: nil)
      chip = TM1638Chip(on: try #require(backend.requests.first))
    }

    /// Shows `frame` and returns the transactions it took.
    func show(_ frame: Frame) -> [[UInt8]] {
      chip.catchUp()
      let before = chip.decoder.transactions.count
      board.show(frame, at: .zero)
      chip.catchUp()
      return Array(chip.decoder.transactions[before...])
    }
  }

  static func frame(_ text: String, brightness: Int = 8, lit: [Int] = []) -> Frame {
    var frame = GPIOFixtures.frame(text, brightness: brightness)
    frame.indicators = (0..<8).map(lit.contains)
    return frame
  }

  /// The register bytes of the digits `text`, each followed by its LED's register.
  static func registers(_ text: String, lit: [Int] = []) -> [UInt8] {
    GPIOFixtures.frame(text).cells.enumerated().flatMap { [$1.rawValue, lit.contains($0) ? 1 : 0] }
  }

  @Test func theLinesAreRequestedAsTheBoardNeedsThem() throws {
    let backend = FakeGPIOBackend()
    _ = TM1638Board(
      name: "board", addresses: [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")],
      encoder: TM1638Protocol(cellCount: 8), buttons: nil, backend: backend,
      logger: GPIOFixtures.quietLogger, at: .zero)
    let lines = try #require(backend.requests.first)
    #expect(lines.addresses == [.name("GPIO17"), .name("GPIO27"), .name("GPIO22")])
    #expect(lines.settings.map(\.direction) == [.output, .output, .output])
    #expect(lines.settings.map(\.drive) == [.pushPull, .pushPull, .openDrain])
    #expect(lines.settings.map(\.initialValue) == [true, true, true], "the lines idle high")
  }

  @Test func digitsGoToEvenRegistersAndLEDsToOddOnes() throws {
    let bench = try Bench()
    let first = bench.show(Self.frame("12345678", brightness: 15, lit: [0, 7]))
    let registers = Self.registers("12345678", lit: [0, 7])
    #expect(first == [[0x40], [0xC0] + registers, [0x8F]], "the full frame")
    #expect(bench.chip.decoder.digits == GPIOFixtures.frame("12345678").cells.map(\.rawValue))
    #expect(bench.chip.decoder.lights == [true, false, false, false, false, false, false, true])
    #expect(bench.chip.decoder.isDisplayOn)
    #expect(bench.chip.decoder.brightness == 7)
    #expect(bench.chip.decoder.violations.isEmpty)
  }

  @Test func anUpdateSendsOnlyWhatChanged() throws {
    let bench = try Bench()
    _ = bench.show(Self.frame("12345678"))
    #expect(bench.show(Self.frame("12345679")) == [[0x44], [0xCE, 0x6F]], "one digit")
    #expect(bench.show(Self.frame("12345679", lit: [2])) == [[0x44], [0xC5, 0x01]], "one LED")
    #expect(
      bench.show(Self.frame("21345679", lit: [2])) == [[0x44], [0xC0, 0x5B], [0xC2, 0x06]],
      "two digits are two registers apart: fixed addresses are as short as a run")
    #expect(
      bench.show(Self.frame("12345679", lit: [0, 2])) == [[0x40], [0xC0, 0x06, 0x01, 0x5B]],
      "two digits and the LED between them: one run")
    #expect(bench.show(Self.frame("12345679", lit: [0, 2])) == [], "nothing changed")
    #expect(bench.show(Self.frame("12345679", brightness: 2, lit: [0, 2])) == [[0x89]])
    #expect(bench.chip.decoder.registers == Self.registers("12345679", lit: [0, 2]))
    #expect(bench.chip.decoder.violations.isEmpty)
  }

  @Test func blankingDarkensDigitsAndLEDsAndKeepsThem() throws {
    let bench = try Bench()
    _ = bench.show(Self.frame("1234", lit: [1]))
    var blank = Self.frame("1234", lit: [1])
    blank.isBlank = true
    #expect(bench.show(blank) == [[0x80]])
    #expect(!bench.chip.decoder.isDisplayOn)
    #expect(bench.chip.decoder.lights[1], "the registers keep the LED")
  }

  @Test func decimalPointsAndTheGridOrderAreShown() throws {
    let bench = try Bench(
      TM1638Protocol(cellCount: 4, gridOrder: [3, 2, 1, 0], bitDelay: .zero))
    _ = bench.show(Self.frame("1.2 3."))
    #expect(Array(bench.chip.decoder.digits.prefix(4)) == [0xCF, 0x00, 0x5B, 0x86])
    #expect(bench.chip.decoder.violations.isEmpty)
  }

  /// The read command's last clock and the first clock of the answer are at least Twait
  /// (1 µs) apart, DIO released in between, and the chip's 32 bits are sampled.
  @Test func aKeyReadWaitsForTheChipAndSamplesItsFourBytes() {
    let steps = TM1638Protocol(cellCount: 8).keyRead()
    let released = steps.firstIndex(of: .release(line: 2))!
    let firstClock = steps[released...].firstIndex(of: .set(line: 1, value: false))!
    let wait = steps[..<firstClock].lastIndex(of: .set(line: 1, value: true))!
    #expect(wait < released)
    #expect(GPIOFixtures.delays(of: Array(steps[wait..<firstClock])).total >= 1_000)
    #expect(steps.filter { $0 == .sample(line: 2) }.count == 32)
    #expect(steps.last == .drive(line: 2, value: true), "DIO is taken back at the end")
  }

  @Test func theDefaultClockIsWithinTheChipsOneMegahertz() {
    let steps = TM1638Protocol(cellCount: 8).keyRead()
    let delays = Set(
      steps.compactMap { step -> Int64? in
        if case .delay(let nanoseconds) = step { nanoseconds } else { nil }
      })
    #expect(delays.allSatisfy { $0 >= 500 })
    #expect(delays.contains(2_000))
  }
}
