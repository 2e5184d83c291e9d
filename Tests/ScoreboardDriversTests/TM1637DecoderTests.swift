import ProtocolDecoders
import Testing

/// The TM1637 decoder on waveforms written by hand from the datasheet, before it judges
/// the encoder.
@Suite struct TM1637DecoderTests {
  /// A waveform as the datasheet draws it: lines idle high, DIO changing only while CLK
  /// is low, the chip pulling DIO low through the 9th clock.
  struct Waveform {
    var changes: [(line: Int, high: Bool)] = []

    mutating func start() {
      changes.append((1, false))
    }

    mutating func byte(_ value: UInt8) {
      for bit in 0..<8 {
        changes += [(0, false), (1, value >> bit & 1 == 1), (0, true)]
      }
      // The chip acknowledges: DIO low from the 8th falling edge through the 9th clock.
      changes += [(0, false), (1, false), (0, true), (0, false)]
    }

    mutating func stop() {
      changes += [(1, false), (0, true), (1, true)]
    }

    mutating func transaction(_ bytes: [UInt8]) {
      start()
      for value in bytes {
        byte(value)
      }
      stop()
    }
  }

  @Test func aDataCommandWrittenOutBitByBit() {
    // START, 0x40 = 0000 0010 LSB first, the acknowledgement, STOP.
    let changes: [(line: Int, high: Bool)] = [
      (1, false),
      (0, false), (0, true), (0, false), (0, true), (0, false), (0, true),
      (0, false), (0, true), (0, false), (0, true), (0, false), (0, true),
      (0, false), (1, true), (0, true),
      (0, false), (1, false), (0, true),
      (0, false), (0, true), (0, false),
      (0, true), (1, true),
    ]
    var decoder = TM1637Decoder()
    decoder.receive(changes)
    #expect(decoder.transactions == [[0x40]])
    #expect(decoder.violations.isEmpty)
  }

  @Test func anAutoIncrementFrameFillsTheGridsAndSwitchesTheDisplayOn() {
    var waveform = Waveform()
    waveform.transaction([0x40])
    waveform.transaction([0xC0, 0x06, 0x5B, 0x4F, 0x66])
    waveform.transaction([0x8A])
    var decoder = TM1637Decoder()
    decoder.receive(waveform.changes)
    #expect(decoder.grids == [0x06, 0x5B, 0x4F, 0x66, 0x00, 0x00])
    #expect(decoder.isDisplayOn)
    #expect(decoder.brightness == 2)
    #expect(decoder.violations.isEmpty)
  }

  @Test func fixedAddressWritesOneGridEach() {
    var waveform = Waveform()
    waveform.transaction([0x44])
    waveform.transaction([0xC5, 0x7F])
    waveform.transaction([0xC2, 0x3F])
    waveform.transaction([0x80])
    var decoder = TM1637Decoder()
    decoder.receive(waveform.changes)
    #expect(decoder.grids == [0, 0, 0x3F, 0, 0, 0x7F])
    #expect(!decoder.isDisplayOn)
    #expect(decoder.violations.isEmpty)
  }

  @Test func dataChangingWhileTheClockIsHighIsReported() {
    var waveform = Waveform()
    waveform.start()
    // Two good bits, then DIO falls while CLK is high (a START in the middle of a byte).
    waveform.changes += [(0, false), (1, true), (0, true), (0, false), (0, true), (1, false)]
    // Two more bits, then DIO rises while CLK is high (a STOP in the middle of a byte).
    waveform.changes += [(0, false), (1, true), (0, true), (0, false), (1, false), (0, true)]
    waveform.changes += [(1, true)]
    var decoder = TM1637Decoder()
    decoder.receive(waveform.changes)
    #expect(
      decoder.violations == [
        "START inside a transaction (DIO fell while CLK was high)",
        "STOP after 2 clocks of a byte (DIO rose while CLK was high)",
        "an empty transaction",
      ])
    #expect(decoder.transactions == [[]])
  }

  @Test func writesPastTheLastGridAndExtraFixedAddressBytesAreReported() {
    var waveform = Waveform()
    waveform.transaction([0x40])
    waveform.transaction([0xC4, 1, 2, 3])
    waveform.transaction([0x44])
    waveform.transaction([0xC0, 1, 2])
    var decoder = TM1637Decoder()
    decoder.receive(waveform.changes)
    #expect(decoder.grids == [0, 0, 0, 0, 1, 2])
    #expect(decoder.violations == ["a write past grid 5", "2 data bytes in fixed address mode"])
  }
}
