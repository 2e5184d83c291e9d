import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings
import TestSupport
import Testing

/// The shift-register encoder played through the GPIO display on fake lines, judged by
/// the independent chain decoder.
@Suite struct ShiftRegisterDisplayTests {
  /// A display, a capture of its lines and a chain at power-up.
  struct Bench {
    let display: GPIOSegmentDisplay
    let lines: FakeGPIOLines
    let capture: LineCapture
    var chain: ShiftRegisterChainDecoder

    init(_ encoder: ShiftRegisterProtocol) throws {
      let (display, backend) = GPIOFixtures.display(encoder)
      self.display = display
      lines = try #require(backend.requests.first)
      capture = LineCapture(lines)
      chain = ShiftRegisterChainDecoder(
        registerCount: encoder.cellCount,
        outputEnable: encoder.hasOutputEnable ? lines.values[3] : nil)
    }

    /// Shows `frame`, played to its end as the loop would, and returns the shift clocks
    /// and latch pulses it took.
    mutating func show(_ frame: Frame) -> (shifts: Int, latches: Int) {
      let before = (chain.shiftClocks, chain.latches)
      display.show(frame, at: Instant(nanoseconds: MonotonicClock.now()))
      GPIOFixtures.playToEnd(display)
      chain.receive(capture.newChanges())
      return (chain.shiftClocks - before.0, chain.latches - before.1)
    }
  }

  @Test func registersHoldTheCellsFromTheOneWiredToThePi() throws {
    var bench = try Bench(ShiftRegisterProtocol(cellCount: 4))
    _ = bench.show(GPIOFixtures.frame("12 7."))
    #expect(bench.chain.outputs == [0x06, 0x5B, 0x00, 0x87])
    #expect(bench.chain.outputsEnabled)
    #expect(bench.lines.values == [false, false, false], "the lines idle low")
    #expect(bench.chain.violations.isEmpty)
  }

  @Test func aChainWiredFromTheRightHoldsTheCellsInReverse() throws {
    var bench = try Bench(ShiftRegisterProtocol(cellCount: 4, chainOrder: .rightmostFirst))
    _ = bench.show(GPIOFixtures.frame("12 7"))
    #expect(bench.chain.outputs == [0x07, 0x00, 0x5B, 0x06])
  }

  @Test func theSparkFunLargeDigitDriverOrder() throws {
    var bench = try Bench(
      ShiftRegisterProtocol(
        cellCount: 3, segmentOrder: ShiftRegisterProtocol.sparkFunLargeDigitOrder))
    _ = bench.show(GPIOFixtures.frame("12.8"))
    // SparkFun's example: a = 1<<0, b = 1<<6, c = 1<<5, d = 1<<4, e = 1<<3, f = 1<<1,
    // g = 1<<2, dp = 1<<7, shifted MSB first.
    let expected: [UInt8] = [0x60, 0x5D | 0x80, 0x7F]
    #expect(bench.chain.outputs == expected)
  }

  @Test func anyPermutationOfSegments() throws {
    let order: [Segments] = [.dp, .g, .f, .e, .d, .c, .b, .a]
    var bench = try Bench(ShiftRegisterProtocol(cellCount: 2, segmentOrder: order))
    _ = bench.show(GPIOFixtures.frame("1."))
    #expect(bench.chain.outputs == [0b0110_0001, 0x00])
  }

  /// Shift registers have no colon: a game clock's colon is the point the frame lights on
  /// the cell before it (`12.34`), and its tenths are a point too (`53.8`).
  @Test(
    arguments: [
      (ShiftRegisterProtocol(cellCount: 4), "12.34", [1], [0x06, 0xDB, 0x4F, 0x66]),
      (
        ShiftRegisterProtocol(cellCount: 4, chainOrder: .rightmostFirst), "12.34", [1],
        [0x66, 0x4F, 0xDB, 0x06]
      ),
      (ShiftRegisterProtocol(cellCount: 4), " 53.8", [], [0x00, 0x6D, 0xCF, 0x7F]),
      (
        ShiftRegisterProtocol(cellCount: 4, chainOrder: .rightmostFirst), " 53.8", [],
        [0x7F, 0xCF, 0x6D, 0x00]
      ),
      // SparkFun's order: a = 1<<0, b = 1<<6, c = 1<<5, d = 1<<4, e = 1<<3, f = 1<<1,
      // g = 1<<2, dp = 1<<7.
      (
        ShiftRegisterProtocol(
          cellCount: 4, segmentOrder: ShiftRegisterProtocol.sparkFunLargeDigitOrder),
        "12.34", [1], [0x60, 0x5D | 0x80, 0x75, 0x66]
      ),
    ] as [(ShiftRegisterProtocol, String, [Int], [UInt8])])
  func aClockShowsItsColonAsThePointBeforeIt(
    encoder: ShiftRegisterProtocol, text: String, colons: [Int], outputs: [UInt8]
  ) throws {
    var bench = try Bench(encoder)
    _ = bench.show(GPIOFixtures.frame(text, colons: colons))
    #expect(bench.chain.outputs == outputs)
    #expect(bench.chain.violations.isEmpty)
  }

  @Test func commonAnodeWiringInvertsTheOutputs() throws {
    var bench = try Bench(ShiftRegisterProtocol(cellCount: 4, invert: true))
    _ = bench.show(GPIOFixtures.frame("12 7"))
    #expect(bench.chain.outputs == [~0x06, ~0x5B, 0xFF, ~0x07])
    _ = bench.show(GPIOFixtures.frame("12 7", isBlank: true))
    #expect(bench.chain.outputs == [0xFF, 0xFF, 0xFF, 0xFF], "blank without OE: all off")
  }

  @Test func theWholeChainIsSentWhenAnythingChangedAndNothingOtherwise() throws {
    var bench = try Bench(ShiftRegisterProtocol(cellCount: 4))
    #expect(bench.show(GPIOFixtures.frame(" 0 0")) == (32, 1))
    #expect(bench.show(GPIOFixtures.frame(" 0 1")) == (32, 1))
    #expect(bench.show(GPIOFixtures.frame(" 0 1")) == (0, 0))
    #expect(bench.show(GPIOFixtures.frame(" 0 1", brightness: 15)) == (0, 0), "no PWM")
    _ = bench.show(GPIOFixtures.frame(" 0 1", isBlank: true))
    #expect(bench.chain.outputs == [0, 0, 0, 0], "blank without OE: all off")
    _ = bench.show(GPIOFixtures.frame(" 0 1"))
    #expect(bench.chain.outputs == [0x00, 0x3F, 0x00, 0x06])
    #expect(bench.chain.violations.isEmpty)
  }

  @Test func outputEnableBlanksWithoutShifting() throws {
    var bench = try Bench(ShiftRegisterProtocol(cellCount: 4, hasOutputEnable: true))
    #expect(bench.lines.settings.count == 4)
    #expect(!bench.chain.outputsEnabled, "disabled until the first frame is latched")
    #expect(bench.show(GPIOFixtures.frame("12 7")) == (32, 1))
    #expect(bench.chain.outputsEnabled)
    #expect(
      bench.lines.transitions.last.map { [$0.line] } == [3], "enabled after the latch")

    #expect(bench.show(GPIOFixtures.frame("12 7", isBlank: true)) == (0, 0))
    #expect(!bench.chain.outputsEnabled)
    #expect(bench.show(GPIOFixtures.frame("13 7", isBlank: true)) == (32, 1), "kept content")
    #expect(!bench.chain.outputsEnabled)
    #expect(bench.show(GPIOFixtures.frame("13 7")) == (0, 0))
    #expect(bench.chain.outputsEnabled)
    #expect(bench.chain.outputs == [0x06, 0x4F, 0x00, 0x07])
    #expect(bench.chain.violations.isEmpty)
  }
}
