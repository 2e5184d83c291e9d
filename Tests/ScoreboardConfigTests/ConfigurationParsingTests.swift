import ScoreboardConfig
import ScoreboardCore
import TestExpectations
import Testing

@Suite struct ConfigurationParsingTests {
  static let twoDisplays = """
    # A scoreboard on two displays.
    [scoreboard]
    cursor = dp
    blink-interval = 250ms
    edit-timeout = 0
    reset-window = 3s
    refusal-flash = 1s
    brightness = 12
    undo-depth = 10
    log-level = debug

    [display main]
    driver = terminal
    digits = 6
    footer = HOME  AWAY

    [display side]
    driver = terminal
    digits = 2

    [field home]
    display = main
    position = 1
    digits = 3

    [field away]
    label = Guests
    display = main
    position = 4
    digits = 3
    min = 1
    max = 150
    placeholder = 0
    entry = shift
    commit-on-last-digit = no
    default = 5

    [field period]
    display = side
    position = 1
    values = 1 2 3 4 OT
    default = OT

    [keymap numpad]
    KEY_KP7 = digit 7
    key_kpenter = commit
    shift+KEY_TAB = previous
    KEY_KPPLUS = add home +1
    KEY_HOME = set period OT
    KEY_SPACE = blank

    [keypad numpad]
    driver = terminal
    keymap = numpad
    device = /dev/tty2

    [keypad console]
    driver = terminal
    keymap = numpad
    """

  @Test func readsEverySectionWithItsValues() throws {
    let configuration = try Configuration.parse(Self.twoDisplays, path: "demo.conf")

    let home = FieldSpec(
      name: "home", label: "HOME", display: "main", position: 0, width: 3,
      kind: .number(NumberFormat(digits: 3)), defaultValue: 0)
    let away = FieldSpec(
      name: "away", label: "Guests", display: "main", position: 3, width: 3,
      kind: .number(
        NumberFormat(
          digits: 3, minimum: 1, maximum: 150, placeholder: .zero, entry: .shift,
          commitOnLastDigit: false)),
      defaultValue: 5)
    let period = FieldSpec(
      name: "period", label: "PERIOD", display: "side", position: 0, width: 2,
      kind: .list(["1", "2", "3", "4", "OT"]), defaultValue: 4)
    let keymap = Keymap(
      name: "numpad",
      bindings: [
        Key("KEY_KP7")!: .digit(7),
        Key("KEY_KPENTER")!: .commit,
        Key("KEY_TAB", shift: true)!: .previous,
        Key("KEY_KPPLUS")!: .add(field: "home", amount: 1),
        Key("KEY_HOME")!: .set(field: "period", value: "OT"),
        Key("KEY_SPACE")!: .blank(.toggle),
      ])
    let expected = Configuration(
      path: "demo.conf",
      scoreboard: ScoreboardSpec(
        fields: [home, away, period],
        displays: [
          DisplayLayout(name: "main", cellCount: 6), DisplayLayout(name: "side", cellCount: 2),
        ],
        cursor: .dp, blinkInterval: .milliseconds(250), editTimeout: nil,
        resetWindow: .seconds(3), refusalFlash: .seconds(1), brightness: 12, undoDepth: 10),
      service: ServiceSettings(logLevel: .debug),
      displays: [
        DisplayConfiguration(
          name: "main", line: 12, cellCount: 6,
          driver: .terminal(TerminalDisplayOptions(footer: "HOME  AWAY"))),
        DisplayConfiguration(
          name: "side", line: 17, cellCount: 2, driver: .terminal(TerminalDisplayOptions())),
      ],
      keypads: [
        KeypadConfiguration(
          name: "numpad", line: 52, keymap: keymap,
          driver: .terminal(TerminalKeypadOptions(device: "/dev/tty2"))),
        KeypadConfiguration(
          name: "console", line: 57, keymap: keymap, driver: .terminal(TerminalKeypadOptions())),
      ],
      keymaps: ["numpad": keymap])
    #expect(configuration == expected)
  }

  @Test func appliesDefaults() throws {
    let text = """
      [display main]
      driver = terminal
      digits = 4
      [field home]
      position = 1
      digits = 2
      [field period]
      position = 3
      values = 1 2 OT
      """
    let configuration = try Configuration.parse(text, path: "minimal.conf")

    let expected = Configuration(
      path: "minimal.conf",
      scoreboard: ScoreboardSpec(
        fields: [
          FieldSpec(
            name: "home", label: "HOME", display: "main", position: 0, width: 2,
            kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
          FieldSpec(
            name: "period", label: "PERIOD", display: "main", position: 2, width: 2,
            kind: .list(["1", "2", "OT"]), defaultValue: 0),
        ],
        displays: [DisplayLayout(name: "main", cellCount: 4)]),
      service: ServiceSettings(),
      displays: [
        DisplayConfiguration(
          name: "main", line: 1, cellCount: 4, driver: .terminal(TerminalDisplayOptions()))
      ],
      keypads: [], keymaps: [:])
    #expect(configuration == expected)
    #expect(configuration.scoreboard.editTimeout == .seconds(15))
  }

  @Test func readsTheFileFormatsIniRules() throws {
    let text =
      "\u{FEFF}; a comment\r\n"
      + "# another comment\r\n"
      + "[ display   main ]  # the display\r\n"
      + "driver: terminal\r\n"
      + "digits = 4 ; cells\r\n"
      + "footer = Game #3 of 5\r\n"
      + "\r\n"
      + "[field home]\r\n"
      + "position = 1\r\n"
      + "digits = 2\r\n"
      + "placeholder = Blank\r\n"
      + "commit-on-last-digit = Off\r\n"
      + "[scoreboard]\r\n"
      + "edit-timeout = 2 min\r\n"
    let configuration = try Configuration.parse(text, path: "syntax.conf")

    #expect(configuration.displays.map(\.name) == ["main"])
    #expect(configuration.displays.first?.line == 3)
    #expect(configuration.displays.first?.cellCount == 4)
    #expect(
      configuration.displays.first?.driver == .terminal(TerminalDisplayOptions(footer: "Game")))
    let format = NumberFormat(digits: 2, placeholder: .blank, commitOnLastDigit: false)
    #expect(configuration.scoreboard.fields.first?.kind == .number(format))
    #expect(configuration.scoreboard.editTimeout == .seconds(120))
  }

  @Test func reportsEveryProblemInLineOrder() {
    let text = """
      [keymap pad]
      KEY_KP_7 = digit 7
      KEY_KP8 = select awya
      [field home]
      position = 1
      digits = 2
      [field away]
      position = 2
      digits = 2
      [field clock]
      lable = CLOCK
      position = 9
      digits = 2
      [display main]
      driver = terminal
      digits = 4
      this is not a key
      [scoreboard]
      undo-depth = 0
      """
    let error = expectError(ConfigurationError.self) {
      try Configuration.parse(text, path: "demo.conf")
    }
    #expect(
      error?.diagnostics.map(\.description) == [
        "demo.conf:2: [keymap pad] KEY_KP_7: unknown key 'KEY_KP_7'; did you mean 'KEY_KP7'?",
        "demo.conf:3: [keymap pad] KEY_KP8: unknown field 'awya' in \"select awya\"; "
          + "did you mean 'away'?",
        "demo.conf:8: [field away] position: overlaps field 'home' on display 'main': "
          + "this field takes cells 2 to 3, 'home' takes cells 1 to 2",
        "demo.conf:11: [field clock] lable: unknown key 'lable'; did you mean 'label'?",
        "demo.conf:17: [display main]: expected 'key = value', found \"this is not a key\"",
        "demo.conf:19: [scoreboard] undo-depth: expected a whole number from 1 to 1000, found \"0\"",
      ])
    #expect(
      error?.diagnostics.first
        == Diagnostic(
          file: "demo.conf", line: 2, section: "keymap pad", key: "KEY_KP_7",
          message: "unknown key 'KEY_KP_7'; did you mean 'KEY_KP7'?"))
  }
}
