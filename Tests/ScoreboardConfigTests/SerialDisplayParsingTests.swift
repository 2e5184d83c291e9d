import ScoreboardConfig
import ScoreboardCore
import ScoreboardSettings
import Testing

/// Serial displays read into exact configurations, with the defaults of what is not given.
@Suite struct SerialDisplayParsingTests {
  /// The fields of every test: home in cells 1-2, away in cells 3-4, on display `main`.
  static let fieldSections = """
    [field home]
    display = main
    position = 1
    digits = 2
    [field away]
    display = main
    position = 3
    digits = 2
    """

  static let fields = [
    FieldSpec(
      name: "home", label: "HOME", display: "main", position: 0, width: 2,
      kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
    FieldSpec(
      name: "away", label: "AWAY", display: "main", position: 2, width: 2,
      kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
  ]

  /// The configuration of `fieldSections` after `displays`.
  static func expected(_ displays: [DisplayConfiguration]) -> Configuration {
    Configuration(
      path: "serial.conf",
      scoreboard: ScoreboardSpec(
        fields: fields,
        displays: displays.map { DisplayLayout(name: $0.name, cellCount: $0.cellCount) }),
      displays: displays, keypads: [], keymaps: [:])
  }

  @Test func s7sWithDefaultsHasFourDigitsPerPort() throws {
    let text = """
      [display main]
      driver = s7s
      port = /dev/serial0
      [display wide]
      driver = S7S
      port = /dev/ttyUSB0   /dev/ttyUSB1 /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0
      """
    let configuration = try Configuration.parse(
      text + "\n" + Self.fieldSections, path: "serial.conf")

    #expect(
      configuration
        == Self.expected([
          DisplayConfiguration(
            name: "main", line: 1, cellCount: 4,
            driver: .s7s(
              S7SDisplayOptions(
                ports: ["/dev/serial0"],
                line: SerialSettings(
                  baudRate: 9600, dataBits: 8, parity: .none, stopBits: 1, flowControl: .none))),
            onStop: .keep),
          DisplayConfiguration(
            name: "wide", line: 4, cellCount: 12,
            driver: .s7s(
              S7SDisplayOptions(ports: [
                "/dev/ttyUSB0", "/dev/ttyUSB1",
                "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0",
              ]))),
        ]))
  }

  @Test func s7sWithEveryKey() throws {
    let text = """
      [display main]
      driver = s7s
      port = /dev/ttyAMA0 /dev/ttyAMA1
      digits = 8
      baud = 115200
      data-bits = 8
      parity = None
      stop-bits = 1
      flow-control = none
      on-stop = blank
      reinit-interval = 0
      """
    let configuration = try Configuration.parse(
      text + "\n" + Self.fieldSections, path: "serial.conf")

    #expect(
      configuration
        == Self.expected([
          DisplayConfiguration(
            name: "main", line: 1, cellCount: 8,
            driver: .s7s(
              S7SDisplayOptions(
                ports: ["/dev/ttyAMA0", "/dev/ttyAMA1"],
                line: SerialSettings(baudRate: 115_200), reinitializeInterval: nil)),
            onStop: .blank)
        ]))
  }

  @Test func serialFrameWithDefaults() throws {
    let text = """
      [display main]
      driver = serial-frame
      port = /dev/ttyUSB0
      digits = 4
      """
    let configuration = try Configuration.parse(
      text + "\n" + Self.fieldSections, path: "serial.conf")

    #expect(
      configuration
        == Self.expected([
          DisplayConfiguration(
            name: "main", line: 1, cellCount: 4,
            driver: .serialFrame(
              SerialFrameDisplayOptions(
                port: "/dev/ttyUSB0", line: SerialSettings(), address: 0, acknowledgement: nil)
            ),
            onStop: .keep)
        ]))
  }

  @Test func serialFrameWithEveryKey() throws {
    let text = """
      [display main]
      driver = serial-frame
      port = /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0
      digits = 64
      baud = 1000000
      data-bits = 7
      parity = even
      stop-bits = 2
      flow-control = RTSCTS
      address = 254
      ack = yes
      ack-timeout = 5s
      retries = 0
      on-stop = keep
      reinit-interval = 5s
      """
    let configuration = try Configuration.parse(
      text + "\n" + Self.fieldSections, path: "serial.conf")

    let options = SerialFrameDisplayOptions(
      port: "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0",
      line: SerialSettings(
        baudRate: 1_000_000, dataBits: 7, parity: .even, stopBits: 2, flowControl: .rtsCts),
      address: 254, acknowledgement: AcknowledgementOptions(timeout: .seconds(5), retries: 0),
      reinitializeInterval: .seconds(5))
    #expect(
      configuration
        == Self.expected([
          DisplayConfiguration(name: "main", line: 1, cellCount: 64, driver: .serialFrame(options))
        ]))
  }

  @Test func serialFrameAcknowledgementDefaults() throws {
    let text = """
      [display main]
      driver = serial-frame
      port = /dev/ttyUSB0
      digits = 4
      ack = on
      """
    let configuration = try Configuration.parse(
      text + "\n" + Self.fieldSections, path: "serial.conf")

    let options = SerialFrameDisplayOptions(
      port: "/dev/ttyUSB0",
      acknowledgement: AcknowledgementOptions(timeout: .milliseconds(100), retries: 3))
    #expect(configuration.displays.map(\.driver) == [.serialFrame(options)])
  }

  @Test func serialTextWithItsTemplate() throws {
    let text = #"""
      [display main]
      driver = serial-text
      port = /dev/ttyACM0
      digits = 4
      baud = 19200
      parity = odd
      template = \x02{home}:{away} {{{brightness}}}\r\n
      reinit-interval = 10min
      """#
    let configuration = try Configuration.parse(
      text + "\n" + Self.fieldSections, path: "serial.conf")

    let template = TextTemplate(pieces: [
      .literal([0x02]), .field("home"), .literal(Array(":".utf8)), .field("away"),
      .literal(Array(" {".utf8)), .brightness, .literal(Array("}".utf8) + [0x0D, 0x0A]),
    ])
    #expect(
      configuration
        == Self.expected([
          DisplayConfiguration(
            name: "main", line: 1, cellCount: 4,
            driver: .serialText(
              SerialTextDisplayOptions(
                port: "/dev/ttyACM0", line: SerialSettings(baudRate: 19200, parity: .odd),
                template: template, reinitializeInterval: .seconds(600))))
        ]))
  }

  @Test func terminalDisplayKeepsItsFinalFrameByDefault() throws {
    let text = """
      [display main]
      driver = terminal
      digits = 4
      """
    let configuration = try Configuration.parse(
      text + "\n" + Self.fieldSections, path: "serial.conf")

    #expect(configuration.displays.map(\.onStop) == [.keep])
  }
}
