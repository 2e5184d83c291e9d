import ScoreboardConfig
import ScoreboardCore
import Testing

/// TM1638 boards read into exact options: the display, its LEDs and, with a keymap, the
/// keypad of its buttons.
@Suite struct TM1638ParsingTests {
  static let board = """
    [display board]
    driver = tm1638
    digits = 6
    stb = GPIO17
    clk = GPIO27
    dio = GPIO22

    """
  static let fields = """
    [field home]
    position = 1
    digits = 2
    [field game]
    type = clock
    position = 3
    length = 10:00

    """

  @Test func aBoardWithoutAKeymapIsADisplayOnly() throws {
    let configuration = try Configuration.parse(Self.board + Self.fields, path: "board.conf")
    #expect(
      configuration.displays.map(\.driver) == [
        .tm1638(
          TM1638DisplayOptions(
            strobe: .name("GPIO17"), clock: .name("GPIO27"), data: .name("GPIO22"),
            bitDelay: .microseconds(2), gridOrder: Array(0..<6)))
      ])
    #expect(configuration.displays.first?.indicators == Array(repeating: nil, count: 8))
    #expect(configuration.keypads.isEmpty)
  }

  @Test func everyKeyOfABoardThatIsAlsoAKeypad() throws {
    let configuration = try Configuration.parse(
      Self.board + """
        bit-delay = 5us
        grid-order = 5 4 3 2 1 0
        keymap = pad
        buttons = KEY_A KEY_B KEY_C KEY_D BTN_0 BTN_1 BTN_2 BTN_3
        scan-interval = 10ms
        debounce = 30ms
        long-press = 2s
        led-2 = home 3
        led-8 = running game

        """ + Self.fields + """
          [keymap pad]
          KEY_A = add home +1
          long+KEY_A = add home -1
          BTN_3 = start-stop

          """, path: "board.conf")
    let keypad = TM1638KeypadOptions(
      keymap: "pad",
      buttons: ["KEY_A", "KEY_B", "KEY_C", "KEY_D", "BTN_0", "BTN_1", "BTN_2", "BTN_3"].map {
        Key($0)!
      },
      scanInterval: .milliseconds(10), debounce: .milliseconds(30), longPress: .seconds(2))
    let display = try #require(configuration.displays.first)
    #expect(
      display.driver
        == .tm1638(
          TM1638DisplayOptions(
            strobe: .name("GPIO17"), clock: .name("GPIO27"), data: .name("GPIO22"),
            bitDelay: .microseconds(5), gridOrder: [5, 4, 3, 2, 1, 0], keypad: keypad)))
    #expect(
      display.indicators == [
        nil, .value(field: "home", equals: 3), nil, nil, nil, nil, nil, .running(clock: "game"),
      ])
    #expect(configuration.scoreboard.displays.first?.indicators == display.indicators)
    #expect(configuration.keypads.map(\.name) == ["board"])
    #expect(configuration.keypads.first?.driver == .tm1638(keypad))
    #expect(configuration.keypads.first?.keymap.name == "pad")
  }
}
