import ScoreboardConfig
import Testing

extension MalformedConfigurationTests {
  /// A TM1638 board `[display board]` of `digits` digits whose `lines` start at line 7,
  /// then fields home (a number), game (a clock) and possession (H or A), a keymap `pad`
  /// binding BTN_0, and `after`.
  static func board(
    _ problem: String, digits: Int = 8, _ lines: String, after: String = "",
    _ diagnostics: String
  ) -> MalformedConfiguration {
    MalformedConfiguration(
      problem: problem,
      text: "[display board]\ndriver = tm1638\ndigits = \(digits)\nstb = GPIO17\nclk = GPIO27\n"
        + "dio = GPIO22\n" + lines
        + "[field home]\nposition = 1\ndigits = 2\n"
        + "[field game]\ntype = clock\nposition = 3\nlength = 10:00\n"
        + "[field possession]\nvalues = H A\nposition = 8\n"
        + "[keymap pad]\nBTN_0 = add home +1\n" + after,
      diagnostics: diagnostics)
  }

  static let tm1638Cases: [MalformedConfiguration] = [
    board(
      "a board of more digits than it has", digits: 9, "",
      "demo.conf:3: [display board] digits: expected a whole number from 1 to 8 (a TM1638 drives 8 digits), found \"9\""
    ),
    board(
      "a board whose keymap does not exist", "keymap = pda\n",
      "demo.conf:7: [display board] keymap: unknown keymap 'pda'; did you mean 'pad'?"),
    board(
      "keypad keys on a board without a keymap", "debounce = 10ms\n",
      "demo.conf:7: [display board] debounce: applies only to a board whose buttons are a keypad; add keymap = KEYMAP to read them"
    ),
    board(
      "too few buttons", "keymap = pad\nbuttons = BTN_0 BTN_1\n",
      "demo.conf:8: [display board] buttons: expected 8 kernel key names, the key each of S1 to S8 sends, such as BTN_0 BTN_1 ... BTN_7, found 2"
    ),
    board(
      "a button that is no key",
      "keymap = pad\nbuttons = BTN_0 BTN_1 BTN_2 BTN_3 BTN_4 BTN_5 BTN_6 BTN_O\n",
      "demo.conf:8: [display board] buttons: 'BTN_O' is not a kernel key name without prefix; did you mean 'BTN_0'?"
    ),
    board(
      "a button with a prefix",
      "keymap = pad\nbuttons = long+BTN_0 BTN_1 BTN_2 BTN_3 BTN_4 BTN_5 BTN_6 BTN_7\n",
      "demo.conf:8: [display board] buttons: 'long+BTN_0' is not a kernel key name without prefix; did you mean 'BTN_0'?"
    ),
    board(
      "two buttons sending one key",
      "keymap = pad\nbuttons = BTN_0 BTN_1 BTN_2 BTN_3 BTN_4 BTN_5 BTN_6 BTN_0\n",
      "demo.conf:8: [display board] buttons: expected each key once, found BTN_0 twice"),
    board(
      "a keymap binding keys the board cannot send", "keymap = other\n",
      after:
        "[keymap other]\nKEY_KP7 = add home +1\nshift+BTN_0 = add home -1\nBTN_1 = add home +2\n",
      "demo.conf:7: [display board] keymap: keymap 'other' binds KEY_KP7 and shift+BTN_0, which no button of the board sends; buttons = names the key each of S1 to S8 sends (BTN_0 to BTN_7 when it is absent)"
    ),
    board(
      "a keypad section with the board's name", "keymap = pad\n",
      after: "[keypad board]\ndriver = terminal\nkeymap = pad\n",
      "demo.conf:7: [display board] keymap: the board's buttons are keypad 'board', and [keypad board] (line 20) has that name too; rename one of them"
    ),
    board(
      "an LED naming a field that does not exist", "led-1 = posession H\n",
      "demo.conf:7: [display board] led-1: unknown field 'posession' in \"posession H\"; did you mean 'possession'?"
    ),
    board(
      "an LED on a value the field cannot hold", "led-2 = possession B\n",
      "demo.conf:7: [display board] led-2: expected one of the values H or A for field 'possession', found \"B\""
    ),
    board(
      "a bonus LED of a field without a bonus", "led-1 = bonus home\n",
      "demo.conf:7: [display board] led-1: field 'home' has no bonus (such as bonus = 5 in its section); fields with one: none"
    ),
    board(
      "a bonus LED of a field that does not exist", "led-1 = bonus hoem\n",
      "demo.conf:7: [display board] led-1: unknown field 'hoem' in \"bonus hoem\"; did you mean 'home'?"
    ),
    board(
      "an LED of nonsense words", "led-1 = home 1 2\n",
      "demo.conf:7: [display board] led-1: expected FIELD VALUE (lit while the field's value is VALUE), running CLOCK (lit while the clock runs), bonus FOULS [2] (lit in the bonus, or the double bonus) or power-play PENALTIES, found \"home 1 2\""
    ),
    board(
      "an LED on a number out of range", "led-3 = home 100\n",
      "demo.conf:7: [display board] led-3: expected a whole number from 0 to 99 for field 'home', found \"100\""
    ),
    board(
      "an LED on a clock's value", "led-4 = game 10:00\n",
      "demo.conf:7: [display board] led-4: field 'game' is a clock; running game lights while it runs"
    ),
    board(
      "an LED running a field that is no clock", "led-5 = running home\n",
      "demo.conf:7: [display board] led-5: field 'home' is not a clock; running CLOCK lights while a clock runs: game"
    ),
    board(
      "an LED running a clock that does not exist", "led-6 = running gmae\n",
      "demo.conf:7: [display board] led-6: unknown field 'gmae' in \"running gmae\"; did you mean 'game'?"
    ),
    board(
      "an LED of one word", "led-7 = home\n",
      "demo.conf:7: [display board] led-7: expected FIELD VALUE (lit while the field's value is VALUE), running CLOCK (lit while the clock runs), bonus FOULS [2] (lit in the bonus, or the double bonus) or power-play PENALTIES, found \"home\""
    ),
    board(
      "a power-play LED of a field without penalties", "led-1 = power-play home\n",
      "demo.conf:7: [display board] led-1: field 'home' keeps no penalties (type = penalties); fields that do: none"
    ),
    board(
      "a power-play LED of no field", "led-1 = power-play\n",
      "demo.conf:7: [display board] led-1: expected power-play PENALTIES (lit while that team is on the power play), found \"power-play\""
    ),
    board(
      "an LED the board does not have", "led-9 = home 1\n",
      "demo.conf:7: [display board] led-9: unknown key 'led-9'; did you mean 'led-1'?"),
    board(
      "a keypad section with driver tm1638", "",
      after: "[keypad board2]\ndriver = tm1638\nkeymap = pad\n",
      "demo.conf:20: [keypad board2] driver: a TM1638 board's buttons are read through its [display NAME] section: name the keymap there (keymap = KEYMAP), and the keypad takes the display's name"
    ),
  ]

  @Test(arguments: tm1638Cases)
  func reportsTheBoardsProblem(_ configuration: MalformedConfiguration) {
    reportsTheProblem(configuration)
  }
}
