import ProtocolDecoders
import Testing

/// The shift-register chain decoder on waveforms written by hand from the 74HC595
/// datasheet, before it judges the encoder.
@Suite struct ShiftRegisterChainDecoderTests {
  /// The bits (`"1000 0000"`, in shifting order, spaces ignored) each put on SER and
  /// shifted in on SRCLK rising.
  static func shift(_ bits: String) -> [(line: Int, high: Bool)] {
    var changes: [(line: Int, high: Bool)] = []
    for bit in bits where bit != " " {
      changes += [(0, bit == "1"), (1, true), (1, false)]
    }
    return changes
  }

  static let latch: [(line: Int, high: Bool)] = [(2, true), (2, false)]

  @Test func theFirstBitShiftedEndsOnQHOfTheFarthestRegister() {
    var decoder = ShiftRegisterChainDecoder(registerCount: 2, outputEnable: nil)
    decoder.receive(Self.shift("1000 0000 0000 0011"))
    #expect(decoder.outputs == [0, 0], "nothing shows before the latch")
    decoder.receive(Self.latch)
    // Register 1: QH = the first bit. Register 0: QA = the last bit, QB the one before.
    #expect(decoder.outputs == [0b0000_0011, 0b1000_0000])
    #expect(decoder.latches == 1)
    #expect(decoder.shiftClocks == 16)
    #expect(decoder.outputsEnabled)
    #expect(decoder.violations.isEmpty)
  }

  @Test func theOutputsKeepTheirLatchWhileShifting() {
    var decoder = ShiftRegisterChainDecoder(registerCount: 1, outputEnable: nil)
    decoder.receive(Self.shift("0000 0110") + Self.latch + Self.shift("1111 1111"))
    #expect(decoder.outputs == [0b0000_0110])
  }

  @Test func outputEnableIsActiveLow() {
    var decoder = ShiftRegisterChainDecoder(registerCount: 1, outputEnable: true)
    #expect(!decoder.outputsEnabled)
    decoder.receive([(3, false)])
    #expect(decoder.outputsEnabled)
    decoder.receive([(3, true)])
    #expect(!decoder.outputsEnabled)
  }

  @Test func anOutputEnableThatIsNotWiredIsReported() {
    var decoder = ShiftRegisterChainDecoder(registerCount: 1, outputEnable: nil)
    decoder.receive([(3, true)])
    #expect(decoder.violations == ["a change on line 3, which the chain does not have"])
  }
}
