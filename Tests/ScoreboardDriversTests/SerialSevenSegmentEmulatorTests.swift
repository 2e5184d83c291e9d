import ProtocolDecoders
import Testing

/// The emulator itself, against the datasheet's commands, so that the encoder tests
/// rest on a decoder known to be right.
@Suite struct SerialSevenSegmentEmulatorTests {
  let font = SerialSevenSegmentEmulator.hexFont

  @Test func charactersAppearAtTheCursorWhichWrapsAfterFourDigits() {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x76] + Array("12Ab".utf8))
    #expect(emulator.digits == [font[1], font[2], font[10], font[11]].map { .segments($0) })
    #expect(emulator.cursor == 0)
    emulator.receive(Array("5".utf8))
    #expect(emulator.digits == [font[5], font[2], font[10], font[11]].map { .segments($0) })
    #expect(emulator.cursor == 1)
  }

  @Test func lowBytesAreHexDigitsAndXIsDark() {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x76, 0x0C, 0x00, 0x0F, 0x78])
    #expect(
      emulator.digits == [
        .segments(font[12]), .segments(font[0]), .segments(font[15]), .segments(0),
      ])
  }

  @Test func charactersWithoutAGlyphAreKeptAsReceived() {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x76, UInt8(ascii: "H")])
    #expect(emulator.digits[0] == .character(UInt8(ascii: "H")))
  }

  @Test func cursorCommandMovesTheCursor() {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x76, 0x79, 0x02, 0x07])
    #expect(emulator.digits == [.segments(0), .segments(0), .segments(font[7]), .segments(0)])
    #expect(emulator.cursor == 3)
  }

  @Test func aCommandAwaitsItsArgumentAndACharacterOrClearDoesNot() {
    var emulator = SerialSevenSegmentEmulator()
    #expect(!emulator.isAwaitingArgument)
    for command: UInt8 in [0x77, 0x79, 0x7A, 0x7B, 0x7E, 0x7F, 0x80, 0x82] {
      emulator.receive([command])
      #expect(emulator.isAwaitingArgument, "after \(command)")
      emulator.receive([0x00])
      #expect(!emulator.isAwaitingArgument, "after \(command)'s argument")
    }
    for byte: UInt8 in [0x76, 0x05, 0x78, 0x81] {
      emulator.receive([byte])
      #expect(!emulator.isAwaitingArgument, "after \(byte)")
    }
  }

  @Test func clearBlanksTheDigitsAndLeavesThePoints() {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x77, 0x21, 0x76])
    #expect(emulator.digits == Array(repeating: .segments(0), count: 4))
    #expect(emulator.points == 0x21)
    #expect(emulator.cursor == 0)
  }

  @Test(
    arguments: [
      (0b0000_0000, [false, false, false, false], false, false),
      (0b0000_0101, [true, false, true, false], false, false),
      (0b0001_0000, [false, false, false, false], true, false),
      (0b0010_1000, [false, false, false, true], false, true),
      (0b0011_1111, [true, true, true, true], true, true),
    ] as [(UInt8, [Bool], Bool, Bool)])
  func pointsColonAndApostropheAreBitsOfOneCommand(
    byte: UInt8, decimalPoints: [Bool], colon: Bool, apostrophe: Bool
  ) {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x77, byte])
    #expect(emulator.decimalPoints == decimalPoints)
    #expect(emulator.isColonLit == colon)
    #expect(emulator.isApostropheLit == apostrophe)
    #expect(emulator.violations.isEmpty)
  }

  @Test func rawSegmentCommandsSetOneDigitEach() {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x7B, 0x01, 0x7C, 0x02, 0x7D, 0x04, 0x7E, 0x40])
    #expect(emulator.digits == [0x01, 0x02, 0x04, 0x40].map { .segments($0) })
    #expect(emulator.cursor == 2)
  }

  @Test func brightnessCommandsAreCounted() {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x7A, 50, 0x7A, 50])
    #expect(emulator.brightness == 50)
    #expect(emulator.brightnessCommands == 2)
  }

  @Test(arguments: [0x7F, 0x80, 0x82] as [UInt8])
  func settingsTakeTheirArgumentEvenWhenItLooksLikeACommand(command: UInt8) {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([command, 0x76])
    #expect(emulator.digits == Array(repeating: .segments(0x7F), count: 4))
    #expect(emulator.otherEEPROMWrites == 1)
    #expect(emulator.violations.isEmpty)
  }

  @Test func factoryResetRestoresFullBrightness() {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive([0x81])
    #expect(emulator.brightness == 100)
    #expect(emulator.otherEEPROMWrites == 1)
  }

  @Test(
    arguments: [
      [0x90], [0x79, 0x04], [0x7A, 101], [0x7B, 0x80], [0x77, 0x40],
    ] as [[UInt8]])
  func invalidBytesAreReported(bytes: [UInt8]) {
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(bytes)
    #expect(emulator.violations.count == 1)
  }
}
