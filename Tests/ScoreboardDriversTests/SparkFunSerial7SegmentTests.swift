import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct SparkFunSerial7SegmentTests {
  /// One frame of a scenario and what showing it must cost.
  struct Step: Sendable {
    /// The frame's cells as the font writes them (`12.34`).
    var text: String
    var brightness = 8
    var isBlank = false
    /// How many bytes the change takes on the wire.
    var bytes: Int
    /// How many brightness commands (EEPROM writes) the module has received by then.
    var brightnessCommands: Int

    var frame: Frame {
      Frame(cells: try! SegmentFont.cells(for: text), brightness: brightness, isBlank: isBlank)
    }
  }

  /// Frames shown one after the other: the first one initialises the module.
  struct Scenario: Sendable, CustomTestStringConvertible {
    var name: String
    var steps: [Step]

    var testDescription: String { name }
  }

  /// The module's brightness (0-100) for each frame brightness, from round(level * 100 / 15).
  static let moduleBrightness = [0, 7, 13, 20, 27, 33, 40, 47, 53, 60, 67, 73, 80, 87, 93, 100]

  static let scenarios = [
    Scenario(
      name: "typing a score",
      steps: [
        // Clear, brightness, 4 digits, points: 1 + 2 + 8 + 2 bytes.
        Step(text: "   0", bytes: 13, brightnessCommands: 1),
        Step(text: "   1", bytes: 2, brightnessCommands: 1),
        Step(text: "  12", bytes: 4, brightnessCommands: 1),
        Step(text: " 123", bytes: 6, brightnessCommands: 1),
        Step(text: " 123", bytes: 0, brightnessCommands: 1),
        Step(text: "  12", bytes: 6, brightnessCommands: 1),
      ]),
    Scenario(
      name: "decimal points",
      steps: [
        Step(text: "1234", bytes: 13, brightnessCommands: 1),
        Step(text: "12.34", bytes: 2, brightnessCommands: 1),
        Step(text: "1.2.34", bytes: 2, brightnessCommands: 1),
        Step(text: "1.2.3.4.", bytes: 2, brightnessCommands: 1),
        Step(text: "1234", bytes: 2, brightnessCommands: 1),
        Step(text: "12.35", bytes: 4, brightnessCommands: 1),
      ]),
    Scenario(
      name: "blank and unblank",
      steps: [
        Step(text: "12.34", bytes: 13, brightnessCommands: 1),
        // Four digits and the points go dark; the brightness stays.
        Step(text: "12.34", isBlank: true, bytes: 10, brightnessCommands: 1),
        Step(text: "12.34", isBlank: true, bytes: 0, brightnessCommands: 1),
        // A brightness change while blank waits until the display shows again.
        Step(text: "12.34", brightness: 12, isBlank: true, bytes: 0, brightnessCommands: 1),
        Step(text: "12.34", brightness: 12, bytes: 12, brightnessCommands: 2),
        Step(text: "1234", brightness: 12, isBlank: true, bytes: 10, brightnessCommands: 2),
        Step(text: "1234", brightness: 12, bytes: 8, brightnessCommands: 2),
      ]),
    Scenario(
      name: "brightness up and down",
      steps: [
        Step(text: "  10", bytes: 13, brightnessCommands: 1),
        Step(text: "  10", brightness: 9, bytes: 2, brightnessCommands: 2),
        Step(text: "  10", brightness: 10, bytes: 2, brightnessCommands: 3),
        Step(text: "  10", brightness: 10, bytes: 0, brightnessCommands: 3),
        Step(text: "  10", brightness: 9, bytes: 2, brightnessCommands: 4),
        Step(text: "  10", brightness: 0, bytes: 2, brightnessCommands: 5),
        Step(text: "  10", brightness: 15, bytes: 2, brightnessCommands: 6),
        Step(text: "  11", brightness: 14, bytes: 4, brightnessCommands: 7),
      ]),
    Scenario(
      name: "starting blank",
      steps: [
        Step(text: "8888", brightness: 5, isBlank: true, bytes: 13, brightnessCommands: 1),
        Step(text: "8888", brightness: 5, bytes: 8, brightnessCommands: 1),
      ]),
  ]

  @Test(arguments: scenarios)
  func scenario(_ scenario: Scenario) {
    var encoder = SparkFunSerial7Segment()
    var emulator = SerialSevenSegmentEmulator()
    var shownBrightness = 0
    for (index, step) in scenario.steps.enumerated() {
      let bytes =
        index == 0 ? encoder.initialize(showing: step.frame) : encoder.update(to: step.frame)
      emulator.receive(bytes)
      if index == 0 || !step.isBlank {
        shownBrightness = Self.moduleBrightness[step.brightness]
      }
      let expectedCells = step.isBlank ? [] : try! SegmentFont.cells(for: step.text)
      #expect(bytes.count == step.bytes, "step \(index): \(step.text)")
      #expect(emulator.brightnessCommands == step.brightnessCommands, "step \(index)")
      #expect(emulator.brightness == shownBrightness, "step \(index)")
      expectShows(expectedCells, on: emulator, step: index)
    }
    #expect(emulator.violations.isEmpty)
    #expect(emulator.otherEEPROMWrites == 0)
  }

  /// Checks that the module shows `cells` (missing cells dark) and only their points.
  func expectShows(_ cells: [Segments], on emulator: SerialSevenSegmentEmulator, step: Int) {
    let fourCells = (0..<4).map { $0 < cells.count ? cells[$0].rawValue : 0 }
    let digits = fourCells.map { SerialSevenSegmentEmulator.Glyph.segments($0 & 0x7F) }
    let points = fourCells.enumerated().reduce(UInt8(0)) { points, cell in
      cell.element & 0x80 != 0 ? points | 1 << cell.offset : points
    }
    #expect(emulator.digits == digits, "step \(step)")
    #expect(emulator.points == points, "step \(step)")
  }

  /// The digits the module shows for `text` (digits and spaces), from the emulator's
  /// font.
  static func digits(_ text: String) -> [SerialSevenSegmentEmulator.Glyph] {
    text.map { character in
      .segments(character.wholeNumberValue.map { SerialSevenSegmentEmulator.hexFont[$0] } ?? 0)
    }
  }

  /// A game clock as the renderer draws it: `12:34` is `12.34` with a colon after cell 1,
  /// tenths are a point (`53.8`, no colon).
  @Test func aClockLightsTheColonInsteadOfThePointOfDigit2() {
    var encoder = SparkFunSerial7Segment()
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(encoder.initialize(showing: Fixtures.frame("12.34", colons: [1])))
    #expect(emulator.digits == Self.digits("1234"))
    #expect(emulator.isColonLit)
    #expect(emulator.decimalPoints == [false, false, false, false])

    let second = encoder.update(to: Fixtures.frame("12.33", colons: [1]))
    #expect(second.count == 2, "one digit, and no points command: the colon stays")
    emulator.receive(second)
    #expect(emulator.isColonLit)

    let tenths = encoder.update(to: Fixtures.frame(" 53.8", colons: []))
    #expect(tenths.count == 8, "three digits and the points command")
    emulator.receive(tenths)
    #expect(emulator.digits == Self.digits(" 538"))
    #expect(!emulator.isColonLit)
    #expect(emulator.decimalPoints == [false, false, true, false])

    #expect(encoder.update(to: Fixtures.frame(" 53.7", colons: [])).count == 2)
    let noClock = encoder.update(to: Fixtures.frame("12.34"))
    emulator.receive(noClock)
    #expect(!emulator.isColonLit, "no clock: the point is a point")
    #expect(emulator.decimalPoints == [false, true, false, false])
    emulator.receive(encoder.update(to: Fixtures.frame("12.34", colons: [1])))
    #expect(emulator.isColonLit)
    #expect(emulator.decimalPoints == [false, false, false, false])
    emulator.receive(encoder.update(to: Fixtures.frame("12.34", isBlank: true, colons: [1])))
    #expect(!emulator.isColonLit, "a blank frame darkens the colon too")
    #expect(emulator.digits == Self.digits("    "))
    #expect(emulator.violations.isEmpty)
  }

  /// Only the module's colon, after its second digit, is a colon: others stay points.
  @Test(
    arguments: [
      ("1.234", [0], [true, false, false, false], false),
      ("123.4", [2], [false, false, true, false], false),
      ("1234.", [3], [false, false, false, true], false),
      ("1.2.34", [0, 1], [true, false, false, false], true),
      ("1234", [1], [false, false, false, false], true),
    ] as [(String, [Int], [Bool], Bool)])
  func colonsElsewhereStayPoints(
    text: String, colons: [Int], decimalPoints: [Bool], colon: Bool
  ) {
    var encoder = SparkFunSerial7Segment()
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(encoder.initialize(showing: Fixtures.frame(text, colons: colons)))
    #expect(emulator.decimalPoints == decimalPoints)
    #expect(emulator.isColonLit == colon)
  }

  /// Two modules make an 8-cell display; each gets its own slice of the frame.
  @Test(
    arguments: [
      ("12.34  07", [1], [true, false]),
      ("  1205.00", [5], [false, true]),
      ("  12 53.8", [], [false, false]),
      ("  1205.00", nil, [false, false]),
    ] as [(String, [Int]?, [Bool])])
  func eachModuleOfADisplayShowsItsOwnColon(text: String, colons: [Int]?, lit: [Bool]) {
    let frame = Fixtures.frame(text, colons: colons)
    let shown = [0..<4, 4..<8].map { cells in
      var encoder = SparkFunSerial7Segment()
      var emulator = SerialSevenSegmentEmulator()
      emulator.receive(encoder.initialize(showing: frame.slice(cells)))
      return emulator.isColonLit
    }
    #expect(shown == lit)
  }

  @Test(arguments: zip(0...15, moduleBrightness))
  func brightnessScale(level: Int, moduleBrightness: Int) {
    var encoder = SparkFunSerial7Segment()
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(encoder.initialize(showing: Fixtures.frame("1234", brightness: level)))
    #expect(emulator.brightness == moduleBrightness)
  }

  @Test(arguments: [(-3, 0), (16, 100), (99, 100)])
  func brightnessOutsideTheScaleIsClamped(level: Int, moduleBrightness: Int) {
    var encoder = SparkFunSerial7Segment()
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(encoder.initialize(showing: Fixtures.frame("1234", brightness: level)))
    #expect(emulator.brightness == moduleBrightness)
    #expect(emulator.violations.isEmpty)
  }

  @Test(arguments: [("12", "12  "), ("1.", "1.   "), ("12345", "1234"), ("", "    ")])
  func framesOfOtherSizesUseTheFirstFourCells(text: String, shown: String) throws {
    var encoder = SparkFunSerial7Segment()
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(encoder.initialize(showing: Fixtures.frame(text)))
    expectShows(try SegmentFont.cells(for: shown), on: emulator, step: 0)
  }

  @Test func aModuleBackAfterAnUnplugIsInitialisedCompletely() {
    var encoder = SparkFunSerial7Segment()
    var before = SerialSevenSegmentEmulator()
    before.receive(encoder.initialize(showing: Fixtures.frame("1.234", brightness: 3)))
    before.receive(encoder.update(to: Fixtures.frame("12.34", brightness: 4)))

    var replugged = SerialSevenSegmentEmulator()
    replugged.receive(encoder.initialize(showing: Fixtures.frame("12.34", brightness: 4)))
    #expect(replugged.digits == before.digits)
    #expect(replugged.points == before.points)
    #expect(replugged.brightness == 27)
    #expect(encoder.update(to: Fixtures.frame("12.34", brightness: 4)).isEmpty)
  }

  /// A module whose power was cut while its port stayed open starts with every segment
  /// and point lit; a refresh brings back what it showed, digits, points and colon,
  /// without a clear and without writing its brightness to EEPROM again.
  @Test(arguments: [("12.34", [1]), ("1.2.3.4.", nil), ("   0", nil), ("", nil)])
  func aRefreshBringsBackAModuleThatLostPower(text: String, colons: [Int]?) throws {
    var encoder = SparkFunSerial7Segment()
    var kept = SerialSevenSegmentEmulator()
    kept.receive(encoder.initialize(showing: Fixtures.frame("0000", brightness: 3)))
    kept.receive(encoder.update(to: Fixtures.frame(text, brightness: 3, colons: colons)))

    var powerCycled = SerialSevenSegmentEmulator()
    let bytes = encoder.refresh(showing: Fixtures.frame(text, brightness: 3, colons: colons))
    powerCycled.receive(bytes)
    #expect(bytes.first != 0x76, "no clear: the digits are written in place")
    #expect(powerCycled.digits == kept.digits)
    #expect(powerCycled.points == kept.points)
    #expect(powerCycled.brightnessCommands == 0)
    #expect(powerCycled.otherEEPROMWrites == 0)
    #expect(powerCycled.violations.isEmpty)
    // The module that kept its power shows the same after the same bytes.
    let before = (kept.digits, kept.points)
    kept.receive(bytes)
    #expect(kept.digits == before.0 && kept.points == before.1)
    #expect(encoder.update(to: Fixtures.frame(text, brightness: 3, colons: colons)).isEmpty)
  }

  /// A frame that carries the refresh sends its changes first, as an update would, so
  /// that they land as early as without the refresh; then every other digit and the
  /// points, each once.
  @Test func aRefreshSendsTheChangesFirst() {
    var encoder = SparkFunSerial7Segment()
    _ = encoder.initialize(showing: Fixtures.frame("1234", brightness: 3))
    var withoutRefresh = encoder
    let update = withoutRefresh.update(to: Fixtures.frame("1235", brightness: 3))
    let bytes = encoder.refresh(showing: Fixtures.frame("1235", brightness: 3))
    #expect(update.count == 2)
    #expect(bytes.starts(with: update))
    #expect(bytes.count == 10, "four digits and the points, each once: \(bytes)")
    var powerCycled = SerialSevenSegmentEmulator()
    powerCycled.receive(bytes)
    expectShows(try! SegmentFont.cells(for: "1235"), on: powerCycled, step: 1)
  }

  /// A brightness that changes with a refresh goes out once, with it.
  @Test func aRefreshCarriesABrightnessChange() {
    var encoder = SparkFunSerial7Segment()
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(encoder.initialize(showing: Fixtures.frame("  12", brightness: 3)))
    emulator.receive(encoder.refresh(showing: Fixtures.frame("  12", brightness: 9)))
    #expect(emulator.brightnessCommands == 2)
    #expect(emulator.brightness == Self.moduleBrightness[9])
    #expect(encoder.update(to: Fixtures.frame("  12", brightness: 9)).isEmpty)
    expectShows(try! SegmentFont.cells(for: "  12"), on: emulator, step: 1)
  }

  @Test func refreshBeforeInitialiseInitialises() {
    var encoder = SparkFunSerial7Segment()
    let bytes = encoder.refresh(showing: Fixtures.frame("0042"))
    #expect(bytes.first == 0x76)
  }

  @Test func updateBeforeInitialiseInitialises() {
    var encoder = SparkFunSerial7Segment()
    let bytes = encoder.update(to: Fixtures.frame("0042"))
    var emulator = SerialSevenSegmentEmulator()
    emulator.receive(bytes)
    #expect(bytes.first == 0x76)
    expectShows(try! SegmentFont.cells(for: "0042"), on: emulator, step: 0)
  }

  /// The driver appends a frame's bytes to the buffer it writes from: what is there stays,
  /// and the frame's bytes follow, as they would alone.
  @Test func anUpdateAppendsItsBytesAfterThoseAlreadyThere() {
    var appending = SparkFunSerial7Segment()
    var alone = SparkFunSerial7Segment()
    let first = Fixtures.frame("1234")
    _ = appending.initialize(showing: first)
    _ = alone.initialize(showing: first)
    let next = Fixtures.frame("12.35", brightness: 3)
    var bytes: [UInt8] = [0xAA, 0xBB]
    appending.update(to: next, appendingTo: &bytes)
    let expected = alone.update(to: next)
    #expect(!expected.isEmpty)
    #expect(bytes == [0xAA, 0xBB] + expected)
    appending.update(to: next, appendingTo: &bytes)
    #expect(bytes == [0xAA, 0xBB] + expected, "an unchanged frame appends nothing")
  }

  @Test func neverAnswers() {
    #expect(SparkFunSerial7Segment().acknowledgement == nil)
  }
}
