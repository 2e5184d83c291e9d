import ScoreboardConfig
import ScoreboardCore
import ScoreboardSettings
import Testing

/// GPIO displays read into exact options, with the defaults of what is not given, and
/// GPIO lines in each syntax.
@Suite struct GPIODisplayParsingTests {
  /// The drivers of the displays in `text`, which is followed by a field on display `main`.
  static func drivers(_ text: String) throws -> [DisplayDriver] {
    let configuration = try Configuration.parse(
      text + "\n[field home]\ndisplay = main\nposition = 1\ndigits = 1\n", path: "gpio.conf")
    return configuration.displays.map(\.driver)
  }

  @Test func tm1637WithDefaults() throws {
    let drivers = try Self.drivers(
      """
      [display main]
      driver = tm1637
      digits = 4
      clk = GPIO23
      dio = GPIO24
      """)

    #expect(
      drivers == [
        .tm1637(
          TM1637DisplayOptions(
            clock: .name("GPIO23"), data: .name("GPIO24"), bitDelay: .microseconds(100),
            colon: false, gridOrder: [0, 1, 2, 3]))
      ])
  }

  @Test func tm1637WithEveryKey() throws {
    let drivers = try Self.drivers(
      """
      [display main]
      driver = TM1637
      digits = 6
      clk = gpiochip0:23
      dio = /dev/gpiochip0:24
      bit-delay = 5us
      colon = yes
      grid-order = 2 1 0 5 4 3
      """)

    #expect(
      drivers == [
        .tm1637(
          TM1637DisplayOptions(
            clock: .offset(chip: "/dev/gpiochip0", offset: 23),
            data: .offset(chip: "/dev/gpiochip0", offset: 24), bitDelay: .microseconds(5),
            colon: true, gridOrder: [2, 1, 0, 5, 4, 3]))
      ])
  }

  @Test func max7219WithDefaultsTakesTheChipsItsDigitsNeed() throws {
    let drivers = try Self.drivers(
      """
      [display main]
      driver = max7219
      digits = 8
      din = GPIO17
      clk = GPIO27
      load = GPIO22
      [display wide]
      driver = max7219
      digits = 12
      din = GPIO5
      clk = GPIO6
      load = GPIO13
      """)

    #expect(
      drivers == [
        .max7219(
          MAX7219DisplayOptions(
            data: .name("GPIO17"), clock: .name("GPIO27"), load: .name("GPIO22"), chips: 1,
            digitOrder: .rightToLeft, reinitializeInterval: .seconds(60))),
        .max7219(
          MAX7219DisplayOptions(
            data: .name("GPIO5"), clock: .name("GPIO6"), load: .name("GPIO13"), chips: 2)),
      ])
  }

  @Test func max7219WithEveryKey() throws {
    let drivers = try Self.drivers(
      """
      [display main]
      driver = max7219
      digits = 32
      din = GPIO17
      clk = GPIO27
      load = GPIO22
      chips = 4
      digit-order = left-to-right
      reinit-interval = 0
      [display side]
      driver = max7219
      digits = 4
      din = GPIO5
      clk = GPIO6
      load = GPIO13
      reinit-interval = 5min
      """)

    #expect(
      drivers == [
        .max7219(
          MAX7219DisplayOptions(
            data: .name("GPIO17"), clock: .name("GPIO27"), load: .name("GPIO22"), chips: 4,
            digitOrder: .leftToRight, reinitializeInterval: nil)),
        .max7219(
          MAX7219DisplayOptions(
            data: .name("GPIO5"), clock: .name("GPIO6"), load: .name("GPIO13"), chips: 1,
            reinitializeInterval: .seconds(300))),
      ])
  }

  @Test func shiftRegisterWithDefaults() throws {
    let drivers = try Self.drivers(
      """
      [display main]
      driver = shift-register
      digits = 4
      ser = GPIO17
      srclk = GPIO27
      rclk = GPIO22
      """)

    #expect(
      drivers == [
        .shiftRegister(
          ShiftRegisterDisplayOptions(
            data: .name("GPIO17"), clock: .name("GPIO27"), latch: .name("GPIO22"),
            outputEnable: nil, segmentOrder: [.a, .b, .c, .d, .e, .f, .g, .dp],
            firstRegister: .rightmostFirst, invert: false))
      ])
  }

  @Test func shiftRegisterWithEveryKey() throws {
    let drivers = try Self.drivers(
      """
      [display main]
      driver = shift-register
      digits = 4
      ser = GPIO17
      srclk = GPIO27
      rclk = GPIO22
      oe = GPIO18
      segments = SparkFun-Large-Digit-Driver
      first-register = leftmost
      invert = no
      [display side]
      driver = shift-register
      digits = 2
      ser = 0:5
      srclk = 0:6
      rclk = 0:13
      segments = DP G F E D C B A
      invert = yes
      """)

    #expect(
      drivers == [
        .shiftRegister(
          ShiftRegisterDisplayOptions(
            data: .name("GPIO17"), clock: .name("GPIO27"), latch: .name("GPIO22"),
            outputEnable: .name("GPIO18"), segmentOrder: [.a, .f, .g, .e, .d, .c, .b, .dp],
            firstRegister: .leftmostFirst, invert: false)),
        .shiftRegister(
          ShiftRegisterDisplayOptions(
            data: .offset(chip: "/dev/gpiochip0", offset: 5),
            clock: .offset(chip: "/dev/gpiochip0", offset: 6),
            latch: .offset(chip: "/dev/gpiochip0", offset: 13),
            segmentOrder: [.dp, .g, .f, .e, .d, .c, .b, .a], invert: true)),
      ])
  }

  /// A written line and the line it names.
  struct LineSyntax: Sendable, CustomTestStringConvertible {
    var text: String
    var line: GPIOLine

    var testDescription: String { text }
  }

  static let lineSyntaxes = [
    LineSyntax(text: "GPIO17", line: .name("GPIO17")),
    LineSyntax(text: "gpio17", line: .name("GPIO17")),
    LineSyntax(text: "GPIO017", line: .name("GPIO17")),
    LineSyntax(text: "GPIO0", line: .name("GPIO0")),
    LineSyntax(text: "ID_SDA", line: .name("ID_SDA")),
    LineSyntax(text: "0:17", line: .offset(chip: "/dev/gpiochip0", offset: 17)),
    LineSyntax(text: "gpiochip0:17", line: .offset(chip: "/dev/gpiochip0", offset: 17)),
    LineSyntax(text: "/dev/gpiochip0:17", line: .offset(chip: "/dev/gpiochip0", offset: 17)),
    LineSyntax(text: "4:0", line: .offset(chip: "/dev/gpiochip4", offset: 0)),
    LineSyntax(text: "gpiochip4:23", line: .offset(chip: "/dev/gpiochip4", offset: 23)),
    LineSyntax(
      text: "/dev/gpio/header:3", line: .offset(chip: "/dev/gpio/header", offset: 3)),
  ]

  @Test(arguments: lineSyntaxes)
  func readsTheLineSyntax(_ syntax: LineSyntax) throws {
    let drivers = try Self.drivers(
      """
      [display main]
      driver = tm1637
      digits = 4
      clk = \(syntax.text)
      dio = GPIO24
      """)

    guard case .tm1637(let options) = try #require(drivers.first) else {
      Issue.record("expected a tm1637 display, found \(drivers)")
      return
    }
    #expect(options.clock == syntax.line)
    #expect(options.clock.description == "\(syntax.line)")
  }

  @Test func writesLinesAsTheConfigurationDoes() {
    #expect(GPIOLine.name("GPIO17").description == "GPIO17")
    #expect(GPIOLine.offset(chip: "/dev/gpiochip0", offset: 17).description == "/dev/gpiochip0:17")
  }

  /// A name and a chip and offset may be the same line: only the kernel can tell.
  @Test func acceptsANameAndAnOffsetThatMayBeOneLine() throws {
    let drivers = try Self.drivers(
      """
      [display main]
      driver = tm1637
      digits = 4
      clk = GPIO17
      dio = gpiochip0:17
      """)

    #expect(drivers.count == 1)
  }

  /// Segment names map to the bits of `Segments`: a to g on bits 0 to 6, dp on bit 7.
  @Test func segmentNamesAreTheBitsOfSegments() {
    #expect(SegmentName.allCases.map(\.segment.rawValue) == (0..<8).map { 1 << $0 })
  }
}
