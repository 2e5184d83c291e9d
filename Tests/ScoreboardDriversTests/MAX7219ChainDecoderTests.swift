import ProtocolDecoders
import Testing

/// The MAX7219 chain decoder on waveforms written by hand from the datasheet, before it
/// judges the encoder.
@Suite struct MAX7219ChainDecoderTests {
  /// LOAD low, the words as bits (`"0000 1100 0000 0001"`, MSB first, spaces ignored),
  /// each put on DIN and clocked in on CLK rising, then LOAD rising.
  static func load(_ words: [String]) -> [(line: Int, high: Bool)] {
    var changes: [(line: Int, high: Bool)] = [(2, false)]
    for bit in words.joined() where bit != " " {
      changes += [(0, bit == "1"), (1, true), (1, false)]
    }
    return changes + [(0, false), (2, true)]
  }

  @Test func oneChipLatchesEachWord() {
    var decoder = MAX7219ChainDecoder(chipCount: 1)
    #expect(decoder.chips[0].isShutdown, "power-up state")
    decoder.receive(Self.load(["0000 1100 0000 0001"]))  // shutdown: normal operation
    decoder.receive(Self.load(["0000 1011 0000 0011"]))  // scan limit: digits 0-3
    decoder.receive(Self.load(["0000 1010 0000 1111"]))  // intensity 15
    decoder.receive(Self.load(["0000 0001 0011 0000"]))  // digit 0: "1" (B, C)
    decoder.receive(Self.load(["0000 0100 1111 1110"]))  // digit 3: "0." (DP, A-F)
    let chip = decoder.chips[0]
    #expect(!chip.isShutdown)
    #expect(chip.scanLimit == 3)
    #expect(chip.intensity == 15)
    #expect(chip.digits[0] == 0x30)
    #expect(chip.digits[3] == 0xFE)
    #expect(chip.shownDigits == [0x30, nil, nil, 0xFE])
    #expect(chip.writes == 5)
    #expect(decoder.loadPulses == 5)
    #expect(decoder.violations.isEmpty)
  }

  @Test func theFirstWordShiftedEndsInTheFarthestChip() {
    var decoder = MAX7219ChainDecoder(chipCount: 3)
    decoder.receive(
      Self.load([
        "0000 1010 0000 0101",  // chip 2: intensity 5
        "0000 0000 1111 1111",  // chip 1: no-op
        "0000 0010 0111 1110",  // chip 0: digit 1 "0"
      ]))
    #expect(decoder.chips[2].intensity == 5)
    #expect(decoder.chips[1] == MAX7219ChainDecoder.Chip(), "a no-op changes nothing")
    #expect(decoder.chips[0].digits[1] == 0x7E)
    #expect(decoder.chips.map(\.writes) == [1, 0, 1])
    #expect(decoder.violations.isEmpty)
  }

  @Test func theTopFourBitsAreIgnored() {
    var decoder = MAX7219ChainDecoder(chipCount: 1)
    decoder.receive(Self.load(["1111 1100 0000 0001"]))
    #expect(!decoder.chips[0].isShutdown)
  }

  @Test func aLoadPulseThatIsNotOneWordPerChipIsReported() {
    var decoder = MAX7219ChainDecoder(chipCount: 2)
    decoder.receive(Self.load(["0000 1100 0000 0001"]))
    #expect(decoder.violations == ["LOAD after 16 clocks, not 32 for 2 chips"])
  }

  @Test func clocksWhileLoadIsHighAreReported() {
    var decoder = MAX7219ChainDecoder(chipCount: 1)
    decoder.receive([(1, true), (1, false)])
    #expect(decoder.violations == ["a clock while LOAD is high"])
  }

  @Test func unusedRegistersAreReported() {
    var decoder = MAX7219ChainDecoder(chipCount: 1)
    decoder.receive(Self.load(["0000 1101 0000 0000"]))
    #expect(decoder.violations == ["chip 0: unused register 13"])
  }
}
