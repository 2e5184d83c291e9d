import ScoreboardConfig
import ScoreboardCore
import ScoreboardSettings
import Testing

/// Each file of `Config/examples/` parses into the display and the keypads it describes.
@Suite struct ExampleConfigurationTests {
  /// The USB numeric keypad of the examples that have one, by its by-id link.
  static let numpad = KeypadDriver.evdev(
    EvdevKeypadOptions(selector: .path("/dev/input/by-id/usb-SIGMACHIP_USB_Keyboard-event-kbd")))

  /// An example file, and what it must configure.
  struct Example: Sendable, CustomTestStringConvertible {
    var file: String
    var display: DisplayConfiguration
    var fields: [String]
    /// The driver of each keypad, by the keypad's name.
    var keypads = ["numpad": ExampleConfigurationTests.numpad]

    var testDescription: String { file }
  }

  /// The examples with a USB numeric keypad and the numpad keymap of the reference.
  static let numpadExamples = [
    "s7s.conf", "s7s-two-modules.conf", "serial-frame.conf", "serial-text.conf",
    "venue-court.conf",
  ]

  static let examples = [
    Example(
      file: "s7s.conf",
      display: DisplayConfiguration(
        name: "main", line: 28, cellCount: 4,
        driver: .s7s(S7SDisplayOptions(ports: ["/dev/serial0"])), onStop: .keep),
      fields: ["home", "away"]),
    Example(
      file: "s7s-two-modules.conf",
      display: DisplayConfiguration(
        name: "main", line: 40, cellCount: 8,
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
        name: "main", line: 32, cellCount: 7,
        driver: .serialFrame(
          SerialFrameDisplayOptions(
            port: "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0",
            line: SerialSettings(baudRate: 57600), address: 0,
            acknowledgement: AcknowledgementOptions(timeout: .milliseconds(200), retries: 3))),
        onStop: .blank),
      fields: ["home", "away", "period"]),
    Example(
      file: "serial-text.conf",
      display: DisplayConfiguration(
        name: "main", line: 28, cellCount: 5,
        driver: .serialText(
          SerialTextDisplayOptions(
            port: "/dev/ttyUSB0", line: SerialSettings(baudRate: 19200),
            template: TextTemplate(pieces: [
              .field("home"), .literal(Array("-".utf8)), .field("away"),
              .literal(Array(" P".utf8)), .field("period"), .literal([0x0D, 0x0A]),
            ]))),
        onStop: .keep),
      fields: ["home", "away", "period"],
      keypads: [
        "numpad": .evdev(EvdevKeypadOptions(selector: .name("SIGMACHIP USB Keyboard")))
      ]),
    Example(
      file: "tm1637-buttons.conf",
      display: DisplayConfiguration(
        name: "main", line: 34, cellCount: 4,
        driver: .tm1637(
          TM1637DisplayOptions(
            clock: .name("GPIO23"), data: .name("GPIO24"), bitDelay: .microseconds(100),
            colon: true, gridOrder: [0, 1, 2, 3])),
        onStop: .blank),
      fields: ["home", "away"],
      keypads: [
        "buttons": .gpioButtons(
          GPIOButtonsKeypadOptions(buttons: [
            .init(key: Key("BTN_0")!, line: .name("GPIO17")),
            .init(key: Key("BTN_1")!, line: .name("GPIO27")),
          ]))
      ]),
    Example(
      file: "tm1638-led-key.conf",
      display: DisplayConfiguration(
        name: "board", line: 33, cellCount: 8,
        driver: .tm1638(
          TM1638DisplayOptions(
            strobe: .name("GPIO17"), clock: .name("GPIO27"), data: .name("GPIO22"),
            bitDelay: .microseconds(2), gridOrder: Array(0..<8),
            keypad: TM1638KeypadOptions(keymap: "board"))),
        onStop: .blank,
        indicators: [
          .value(field: "possession", equals: 0), nil, .value(field: "period", equals: 1),
          .value(field: "period", equals: 2), .value(field: "period", equals: 3),
          .value(field: "period", equals: 4), nil, .value(field: "possession", equals: 1),
        ]),
      fields: ["home", "possession", "away", "period"],
      keypads: ["board": .tm1638(TM1638KeypadOptions(keymap: "board"))]),
    Example(
      file: "max7219-matrix.conf",
      display: DisplayConfiguration(
        name: "main", line: 45, cellCount: 8,
        driver: .max7219(
          MAX7219DisplayOptions(
            data: .name("GPIO17"), clock: .name("GPIO27"), load: .name("GPIO22"), chips: 1,
            digitOrder: .rightToLeft, reinitializeInterval: .seconds(60))),
        onStop: .blank),
      fields: ["home", "period", "away"],
      keypads: [
        "pad": .gpioMatrix(
          GPIOMatrixKeypadOptions(
            rows: [.name("GPIO5"), .name("GPIO6"), .name("GPIO13"), .name("GPIO19")],
            columns: [.name("GPIO12"), .name("GPIO16"), .name("GPIO20"), .name("GPIO21")],
            keys: [
              "KEY_1", "KEY_2", "KEY_3", "KEY_A", "KEY_4", "KEY_5", "KEY_6", "KEY_B", "KEY_7",
              "KEY_8", "KEY_9", "KEY_C", "KEY_NUMERIC_STAR", "KEY_0", "KEY_NUMERIC_POUND", "KEY_D",
            ].map { Key($0)! }))
      ]),
    Example(
      file: "large-digits-buttons.conf",
      display: DisplayConfiguration(
        name: "main", line: 41, cellCount: 4,
        driver: .shiftRegister(
          ShiftRegisterDisplayOptions(
            data: .name("GPIO17"), clock: .name("GPIO27"), latch: .name("GPIO22"),
            segmentOrder: [.a, .f, .g, .e, .d, .c, .b, .dp], firstRegister: .leftmostFirst,
            invert: false)),
        onStop: .blank),
      fields: ["home", "away"],
      keypads: [
        "buttons": .gpioButtons(
          GPIOButtonsKeypadOptions(
            buttons: [
              .init(key: Key("BTN_0")!, line: .name("GPIO5")),
              .init(key: Key("BTN_1")!, line: .name("GPIO6")),
              .init(key: Key("BTN_2")!, line: .name("GPIO13")),
            ],
            debounce: .milliseconds(30)))
      ]),
    Example(
      file: "usb-numpad.conf",
      display: DisplayConfiguration(
        name: "main", line: 37, cellCount: 4,
        driver: .tm1637(
          TM1637DisplayOptions(
            clock: .name("GPIO23"), data: .name("GPIO24"), bitDelay: .microseconds(100),
            colon: true, gridOrder: [0, 1, 2, 3])),
        onStop: .blank),
      fields: ["home", "away"],
      keypads: [
        "home": .evdev(
          EvdevKeypadOptions(
            selector: .path(
              "/dev/input/by-path/platform-fd500000.pcie-pci-0000:01:00.0-usb-0:1.3:1.0-event-kbd"
            ))),
        "away": .evdev(
          EvdevKeypadOptions(
            selector: .path(
              "/dev/input/by-path/platform-fd500000.pcie-pci-0000:01:00.0-usb-0:1.4:1.0-event-kbd"
            ))),
      ]),
    Example(
      file: "venue-court.conf",
      display: DisplayConfiguration(
        name: "main", line: 41, cellCount: 4,
        driver: .s7s(S7SDisplayOptions(ports: ["/dev/serial0"])), onStop: .keep),
      fields: ["home", "away"]),
    Example(
      file: "venue-far-end.conf",
      display: DisplayConfiguration(
        name: "main", line: 21, cellCount: 4,
        driver: .s7s(S7SDisplayOptions(ports: ["/dev/serial0"])), onStop: .blank),
      fields: ["home", "away"], keypads: [:]),
  ]

  /// The two boards of the venue examples: court 1 keeps the score and announces
  /// itself to Home Assistant; the far end mirrors it, with dashes while it is away.
  @Test func venueBoardsShareOneGame() throws {
    let court = try Configuration.parse(
      try PackageFile.contents(of: "Config/examples/venue-court.conf"), path: "venue-court.conf")
    let farEnd = try Configuration.parse(
      try PackageFile.contents(of: "Config/examples/venue-far-end.conf"),
      path: "venue-far-end.conf")

    #expect(
      court.mqtt
        == MQTTSettings(
          host: "broker.local", clientID: "scoreboardd-court-1", baseTopic: "scoreboardd/court-1",
          deviceName: "Court 1"))
    #expect(
      farEnd.mqtt
        == MQTTSettings(
          host: "broker.local", clientID: "scoreboardd-court-1-far-end",
          baseTopic: "scoreboardd/court-1-far-end", discoveryPrefix: nil,
          mirror: MQTTSettings.Mirror(source: "scoreboardd/court-1", whenStale: .dashes)))
    #expect(farEnd.scoreboard.fields.map(\.name) == court.scoreboard.fields.map(\.name))
  }

  @Test(arguments: examples)
  func parses(_ example: Example) throws {
    let configuration = try Configuration.parse(
      try PackageFile.contents(of: "Config/examples/" + example.file), path: example.file)

    #expect(configuration.displays == [example.display])
    #expect(configuration.scoreboard.fields.map(\.name) == example.fields)
    #expect(
      Dictionary(uniqueKeysWithValues: configuration.keypads.map { ($0.name, $0.driver) })
        == example.keypads)
  }

  /// The examples with a USB numeric keypad use the numpad keymap the reference ships.
  @Test(arguments: numpadExamples)
  func numpadsUseTheReferenceKeymap(_ file: String) throws {
    let configuration = try Configuration.parse(
      try PackageFile.contents(of: "Config/examples/" + file), path: file)
    let reference = try ReferenceConfigurationTests.parseReference()

    let keymap = try #require(reference.keymaps["numpad"])
    #expect(configuration.keypads.map(\.keymap) == [keymap])
  }

  /// Each bench's keypad adds to its own team's score, once per press.
  @Test func benchKeypadsAddToTheirTeam() throws {
    let configuration = try Configuration.parse(
      try PackageFile.contents(of: "Config/examples/usb-numpad.conf"), path: "usb-numpad.conf")

    for team in ["home", "away"] {
      let keypad = try #require(configuration.keypads.first { $0.name == team })
      #expect(
        keypad.keymap
          == Keymap(
            name: team + "-bench",
            bindings: [
              Key("KEY_KPPLUS")!: .add(field: team, amount: 1),
              Key("KEY_KP1")!: .add(field: team, amount: 1),
              Key("KEY_KP2")!: .add(field: team, amount: 2),
              Key("KEY_KP3")!: .add(field: team, amount: 3),
              Key("KEY_KPMINUS")!: .add(field: team, amount: -1),
            ],
            repeating: []))
    }
  }

  /// The button examples bind a long press of each team's button to taking a point away.
  @Test(arguments: ["tm1637-buttons.conf", "large-digits-buttons.conf", "tm1638-led-key.conf"])
  func longPressesTakeAPointAway(_ file: String) throws {
    let configuration = try Configuration.parse(
      try PackageFile.contents(of: "Config/examples/" + file), path: file)

    let bindings = try #require(configuration.keypads.first?.keymap.bindings)
    #expect(bindings[Key("BTN_0", long: true)!] == .add(field: "home", amount: -1))
    #expect(bindings[Key("BTN_1", long: true)!] == .add(field: "away", amount: -1))
  }
}
