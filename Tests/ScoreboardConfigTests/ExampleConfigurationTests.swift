import ScoreboardConfig
import ScoreboardCore
import Testing

/// Each file of `Config/examples/` parses into the display it describes, with a terminal
/// keypad.
@Suite struct ExampleConfigurationTests {
  /// An example file, and what it must configure.
  struct Example: Sendable, CustomTestStringConvertible {
    var file: String
    var display: DisplayConfiguration
    var fields: [String]

    var testDescription: String { file }
  }

  static let examples = [
    Example(
      file: "s7s.conf",
      display: DisplayConfiguration(
        name: "main", line: 27, cellCount: 4,
        driver: .s7s(S7SDisplayOptions(ports: ["/dev/serial0"])), onStop: .keep),
      fields: ["home", "away"]),
    Example(
      file: "s7s-two-modules.conf",
      display: DisplayConfiguration(
        name: "main", line: 39, cellCount: 8,
        driver: .s7s(
          S7SDisplayOptions(ports: [
            "/dev/serial0",
            "/dev/serial/by-id/usb-Silicon_Labs_CP2102_USB_to_UART_Bridge_Controller_0001-if00-port0",
          ])),
        onStop: .blank),
      fields: ["home", "period", "away"]),
    Example(
      file: "serial-frame.conf",
      display: DisplayConfiguration(
        name: "main", line: 31, cellCount: 7,
        driver: .serialFrame(
          SerialFrameDisplayOptions(
            port: "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0",
            line: SerialLineOptions(baudRate: 57600), address: 0,
            acknowledgement: AcknowledgementOptions(timeout: .milliseconds(200), retries: 3))),
        onStop: .blank),
      fields: ["home", "away", "period"]),
    Example(
      file: "serial-text.conf",
      display: DisplayConfiguration(
        name: "main", line: 28, cellCount: 5,
        driver: .serialText(
          SerialTextDisplayOptions(
            port: "/dev/ttyUSB0", line: SerialLineOptions(baudRate: 19200),
            template: TextTemplate(pieces: [
              .field("home"), .literal(Array("-".utf8)), .field("away"),
              .literal(Array(" P".utf8)), .field("period"), .literal([0x0D, 0x0A]),
            ]))),
        onStop: .keep),
      fields: ["home", "away", "period"]),
  ]

  @Test(arguments: examples)
  func parses(_ example: Example) throws {
    let configuration = try Configuration.parse(
      try PackageFile.contents(of: "Config/examples/" + example.file), path: example.file)

    #expect(configuration.displays == [example.display])
    #expect(configuration.scoreboard.fields.map(\.name) == example.fields)
    #expect(configuration.keypads.map(\.name) == ["keyboard"])
    #expect(configuration.keypads.first?.driver == .terminal(TerminalKeypadOptions()))
  }
}
