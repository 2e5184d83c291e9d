import ScoreboardConfig
import ScoreboardCore
import Testing

/// GPIO keypads read into exact options, with the defaults of what is not given, and the
/// long presses their keymaps bind.
@Suite struct GPIOKeypadParsingTests {
  /// A display and the fields `home` and `away`, for keymaps to name.
  static let scoreboard = """
    [display main]
    driver = terminal
    digits = 4
    [field home]
    position = 1
    digits = 2
    [field away]
    position = 3
    digits = 2

    """

  /// The configuration of `scoreboard` followed by `text`.
  static func parse(_ text: String) throws -> Configuration {
    try Configuration.parse(Self.scoreboard + text, path: "keypads.conf")
  }

  @Test func gpioButtonsWithDefaults() throws {
    let configuration = try Self.parse(
      """
      [keymap buttons]
      BTN_0 = add home +1
      [keypad buttons]
      driver = gpio-buttons
      keymap = buttons
      BTN_0 = GPIO17
      btn_1 = 0:27
      """)

    #expect(
      configuration.keypads.map(\.driver) == [
        .gpioButtons(
          GPIOButtonsKeypadOptions(
            buttons: [
              .init(key: Key("BTN_0")!, line: .name("GPIO17")),
              .init(key: Key("BTN_1")!, line: .offset(chip: "/dev/gpiochip0", offset: 27)),
            ],
            bias: .pullUp, activeLow: true, debounce: .milliseconds(20),
            longPress: .seconds(1)))
      ])
  }

  @Test func gpioButtonsWithEveryKey() throws {
    let configuration = try Self.parse(
      """
      [keymap buttons]
      [keypad buttons]
      driver = gpio-buttons
      keymap = buttons
      bias = Pull-Down
      active-low = no
      debounce = 0
      long-press = 2500ms
      KEY_ENTER = GPIO5
      KEY_ESC = GPIO6
      """)

    #expect(
      configuration.keypads.map(\.driver) == [
        .gpioButtons(
          GPIOButtonsKeypadOptions(
            buttons: [
              .init(key: Key("KEY_ENTER")!, line: .name("GPIO5")),
              .init(key: Key("KEY_ESC")!, line: .name("GPIO6")),
            ],
            bias: .pullDown, activeLow: false, debounce: .zero,
            longPress: .milliseconds(2500)))
      ])
  }

  @Test func gpioMatrixWithDefaults() throws {
    let configuration = try Self.parse(
      """
      [keymap pad]
      [keypad pad]
      driver = gpio-matrix
      keymap = pad
      rows = GPIO5 GPIO6 GPIO13
      columns = GPIO12  gpiochip0:16
      keys = KEY_1 KEY_2 key_3 KEY_4 KEY_NUMERIC_STAR KEY_NUMERIC_POUND
      """)

    #expect(
      configuration.keypads.map(\.driver) == [
        .gpioMatrix(
          GPIOMatrixKeypadOptions(
            rows: [.name("GPIO5"), .name("GPIO6"), .name("GPIO13")],
            columns: [.name("GPIO12"), .offset(chip: "/dev/gpiochip0", offset: 16)],
            keys: ["KEY_1", "KEY_2", "KEY_3", "KEY_4", "KEY_NUMERIC_STAR", "KEY_NUMERIC_POUND"]
              .map { Key($0)! },
            debounce: .milliseconds(20)))
      ])
  }

  @Test func gpioMatrixWithItsDebounce() throws {
    let configuration = try Self.parse(
      """
      [keymap pad]
      [keypad pad]
      driver = gpio-matrix
      keymap = pad
      rows = GPIO5
      columns = GPIO12
      keys = BTN_0
      debounce = 500us
      """)

    #expect(
      configuration.keypads.map(\.driver) == [
        .gpioMatrix(
          GPIOMatrixKeypadOptions(
            rows: [.name("GPIO5")], columns: [.name("GPIO12")], keys: [Key("BTN_0")!],
            debounce: .microseconds(500)))
      ])
  }

  /// A keymap binds a long press apart from the plain press, in any case and with the
  /// prefixes in either order; a terminal keypad may share it with the buttons.
  @Test func keymapsBindLongPressesOfButtons() throws {
    let configuration = try Self.parse(
      """
      [keymap buttons]
      BTN_0 = add home +1
      long+BTN_0 = add home -1
      LONG+btn_1 = add away -1
      shift+long+BTN_2 = undo
      [keypad buttons]
      driver = gpio-buttons
      keymap = buttons
      BTN_0 = GPIO17
      BTN_1 = GPIO27
      [keypad console]
      driver = terminal
      keymap = buttons
      """)

    let keymap = Keymap(
      name: "buttons",
      bindings: [
        Key("BTN_0")!: .add(field: "home", amount: 1),
        Key("BTN_0", long: true)!: .add(field: "home", amount: -1),
        Key("BTN_1", long: true)!: .add(field: "away", amount: -1),
        Key("BTN_2", shift: true, long: true)!: .undo,
      ])
    #expect(configuration.keymaps == ["buttons": keymap])
    #expect(configuration.keypads.map(\.keymap) == [keymap, keymap])
  }

  /// A keymap with long presses that no keypad uses is not an error: a keypad may come.
  @Test func acceptsLongPressesInAKeymapNoKeypadUses() throws {
    let configuration = try Self.parse(
      """
      [keymap spare]
      long+BTN_0 = reset
      """)

    #expect(configuration.keymaps["spare"]?.bindings == [Key("BTN_0", long: true)!: .reset])
  }
}
