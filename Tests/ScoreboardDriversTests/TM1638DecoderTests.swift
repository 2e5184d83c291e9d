import ProtocolDecoders
import Testing

/// The TM1638 decoder on waveforms written by hand from the datasheet, before it judges
/// the encoder.
@Suite struct TM1638DecoderTests {
  /// A waveform as the datasheet draws it on STB (0), CLK (1) and DIO (2): lines idle
  /// high, DIO changing while CLK is low, each transaction framed by STB.
  struct Waveform {
    var changes: [(line: Int, high: Bool)] = []

    mutating func byte(_ value: UInt8) {
      for bit in 0..<8 {
        changes += [(1, false), (2, value >> bit & 1 == 1), (1, true)]
      }
    }

    mutating func transaction(_ bytes: [UInt8]) {
      changes.append((0, false))
      for value in bytes {
        byte(value)
      }
      changes += [(0, true), (2, true)]
    }
  }

  @Test func aFrameFillsTheRegistersAndSwitchesTheDisplayOn() {
    var waveform = Waveform()
    waveform.transaction([0x40])
    waveform.transaction([0xC0, 0x06, 0x01, 0x5B])
    waveform.transaction([0x8B])
    var decoder = TM1638Decoder()
    decoder.receive(waveform.changes)
    #expect(decoder.transactions == [[0x40], [0xC0, 0x06, 0x01, 0x5B], [0x8B]])
    #expect(Array(decoder.registers.prefix(4)) == [0x06, 0x01, 0x5B, 0x00])
    #expect(decoder.digits.prefix(2) == [0x06, 0x5B])
    #expect(decoder.lights == [true] + Array(repeating: false, count: 7))
    #expect(decoder.isDisplayOn)
    #expect(decoder.brightness == 3)
    #expect(decoder.violations.isEmpty)
  }

  @Test func aFixedAddressWritesOneRegister() {
    var waveform = Waveform()
    waveform.transaction([0x44])
    waveform.transaction([0xC5, 0x01])
    waveform.transaction([0xC6, 0x01, 0x02])
    var decoder = TM1638Decoder()
    decoder.receive(waveform.changes)
    #expect(decoder.registers[5] == 0x01)
    #expect(decoder.registers[6] == 0)
    #expect(decoder.violations == ["2 data bytes in fixed address mode"])
  }

  /// The chip answers a read with its key bytes, one bit per clock, changed on the
  /// falling edge: S1 is bit 0 and S5 bit 4 of the first byte, S2 bit 0 of the second.
  @Test func aKeyReadIsAnsweredBitByBitOnTheFallingEdges() {
    var decoder = TM1638Decoder()
    decoder.pressed = [1, 5, 2, 8]
    var waveform = Waveform()
    waveform.changes.append((0, false))
    waveform.byte(0x42)
    waveform.changes.append((2, true))
    decoder.receive(waveform.changes)
    var bits: [Bool] = []
    for _ in 0..<32 {
      decoder.receive(line: 1, high: false)
      decoder.receive(line: 1, high: true)
      bits.append(decoder.dataLevel)
    }
    decoder.receive(line: 0, high: true)
    let bytes = (0..<4).map { byte in
      (0..<8).reduce(UInt8(0)) { $0 | (bits[byte * 8 + $1] ? 1 << $1 : 0) }
    }
    #expect(bytes == [0x11, 0x01, 0x00, 0x10])
    #expect(decoder.keyReads == 1)
    #expect(decoder.transactions == [[0x42]])
    #expect(decoder.dataLevel, "the chip lets go of DIO once STB is high")
    #expect(decoder.violations.isEmpty)
  }

  @Test func aReadCutShortAndAByteCutShortAreViolations() {
    var decoder = TM1638Decoder()
    var waveform = Waveform()
    waveform.changes.append((0, false))
    waveform.byte(0x42)
    waveform.changes += [(1, false), (1, true), (0, true)]
    waveform.changes += [(0, false), (1, false), (1, true), (0, true)]
    decoder.receive(waveform.changes)
    #expect(
      decoder.violations == [
        "a key read ended after 1 of its 32 bits", "STB rose after 1 bits of a byte",
      ])
  }

  @Test func theHostPullingDIOLowDuringTheAnswerIsAViolation() {
    var decoder = TM1638Decoder()
    var waveform = Waveform()
    waveform.changes.append((0, false))
    waveform.byte(0x42)
    waveform.changes += [(2, true), (1, false), (2, false)]
    decoder.receive(waveform.changes)
    #expect(decoder.violations == ["the host pulled DIO low while the chip answered a key read"])
  }
}
