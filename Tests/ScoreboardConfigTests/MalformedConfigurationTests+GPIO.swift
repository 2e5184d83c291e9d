import ScoreboardConfig
import Testing

extension MalformedConfigurationTests {
  /// The lines of a tm1637 display for `.display`: `digits` at line 3, `clk` at line 4 and
  /// `dio` at line 5.
  static func tm1637(clock: String = "GPIO23", digits: Int = 4) -> String {
    "driver = tm1637\ndigits = \(digits)\nclk = \(clock)\ndio = GPIO24\n"
  }

  static let gpioCases: [MalformedConfiguration] = [
    .display(
      "line without its number", tm1637(clock: "GPIO"),
      "demo.conf:4: [display main] clk: expected a GPIO line: a name such as GPIO17, or a chip and offset such as gpiochip0:17, found \"GPIO\""
    ),
    .display(
      "line offset not a number", tm1637(clock: "gpiochip0:x"),
      "demo.conf:4: [display main] clk: expected a line offset after 'gpiochip0:', a whole number 0 or more, found \"x\""
    ),
    .display(
      "negative line", tm1637(clock: "-1"),
      "demo.conf:4: [display main] clk: expected a GPIO line: a name such as GPIO17, or a chip and offset such as gpiochip0:17, found \"-1\""
    ),
    .display(
      "negative line offset", tm1637(clock: "0:-1"),
      "demo.conf:4: [display main] clk: expected a line offset after '0:', a whole number 0 or more, found \"-1\""
    ),
    .display(
      "line given by its number alone", tm1637(clock: "17"),
      "demo.conf:4: [display main] clk: expected a GPIO line: a name such as GPIO17, or a chip and offset such as gpiochip0:17, found \"17\"; did you mean GPIO17?"
    ),
    .display(
      "chip without a line offset", tm1637(clock: "gpiochip0"),
      "demo.conf:4: [display main] clk: expected ':' and a line offset after the chip, as in gpiochip0:17, found \"gpiochip0\""
    ),
    .display(
      "unknown chip", tm1637(clock: "spi0:3"),
      "demo.conf:4: [display main] clk: expected a chip such as gpiochip0, /dev/gpiochip0 or 0 before ':', found \"spi0\""
    ),
    .display(
      "two lines for one", tm1637(clock: "GPIO23 GPIO22"),
      "demo.conf:4: [display main] clk: expected one GPIO line, found 2"),
    .display(
      "line used twice in one section", tm1637(clock: "gpio24"),
      "demo.conf:5: [display main] dio: GPIO24 is also used by [display main] clk (line 4); a GPIO line can be used only once"
    ),
    MalformedConfiguration(
      problem: "line used twice across sections, written two ways",
      text: """
        [display main]
        driver = shift-register
        digits = 4
        ser = 0:17
        srclk = GPIO27
        rclk = GPIO22
        [field home]
        position = 1
        digits = 2
        [keymap pad]
        [keypad pad]
        driver = gpio-buttons
        keymap = pad
        BTN_0 = /dev/gpiochip0:17

        """,
      diagnostics:
        "demo.conf:14: [keypad pad] BTN_0: /dev/gpiochip0:17 is also used by [display main] ser (line 4); a GPIO line can be used only once"
    ),
    .display(
      "tm1637 key missing", "driver = tm1637\ndigits = 4\nclk = GPIO23\n",
      "demo.conf:1: [display main]: missing required key 'dio'"),
    .display(
      "tm1637 with more digits than grids", tm1637(digits: 8),
      "demo.conf:3: [display main] digits: expected a whole number from 1 to 6 (a TM1637 drives 6 digits), found \"8\""
    ),
    .display(
      "grid order not a permutation", tm1637() + "grid-order = 0 1 1 3\n",
      "demo.conf:6: [display main] grid-order: expected each grid from 0 to 3 once, the grid of each cell left to right (digits = 4), found \"0 1 1 3\""
    ),
    .display(
      "grid order of too few grids", tm1637() + "grid-order = 1 0\n",
      "demo.conf:6: [display main] grid-order: expected each grid from 0 to 3 once, the grid of each cell left to right (digits = 4), found \"1 0\""
    ),
    .display(
      "bit delay out of range", tm1637() + "bit-delay = 20ms\n",
      "demo.conf:6: [display main] bit-delay: expected a duration from 1us to 10ms, found \"20ms\""
    ),
    .display(
      "bit delay without a unit", tm1637() + "bit-delay = 100\n",
      "demo.conf:6: [display main] bit-delay: expected a duration from 1us to 10ms, found \"100\"; add a unit: us, ms, s or min"
    ),
    .display(
      "tm1637 key on a max7219 display",
      "driver = max7219\ndigits = 8\ndin = GPIO17\nclk = GPIO27\nload = GPIO22\ndio = GPIO23\n",
      "demo.conf:7: [display main] dio: applies only to drivers tm1637 and tm1638, not to driver max7219"
    ),
    .display(
      "more digits than the chips drive",
      "driver = max7219\ndigits = 12\ndin = GPIO17\nclk = GPIO27\nload = GPIO22\nchips = 1\n",
      "demo.conf:7: [display main] chips: 1 chip drives at most 8 digits (8 per MAX7219), but digits = 12; expected at least 2 chips"
    ),
    .display(
      "a chip of the chain without digits",
      "driver = max7219\ndigits = 8\ndin = GPIO17\nclk = GPIO27\nload = GPIO22\nchips = 3\n",
      "demo.conf:7: [display main] chips: digits = 8 needs 1 chip, but the chain has 3; every chip must show digits: set digits from 17 to 24"
    ),
    .display(
      "too many chips",
      "driver = max7219\ndigits = 8\ndin = GPIO17\nclk = GPIO27\nload = GPIO22\nchips = 9\n",
      "demo.conf:7: [display main] chips: expected a whole number from 1 to 8, found \"9\""),
    .display(
      "reinit interval too short",
      "driver = max7219\ndigits = 8\ndin = GPIO17\nclk = GPIO27\nload = GPIO22\n"
        + "reinit-interval = 500ms\n",
      "demo.conf:7: [display main] reinit-interval: expected 0 (never) or a duration from 1s to 60min, found \"500ms\""
    ),
    .display(
      "segment named twice",
      "driver = shift-register\ndigits = 4\nser = GPIO17\nsrclk = GPIO27\nrclk = GPIO22\n"
        + "segments = a b c d e f g a\n",
      "demo.conf:7: [display main] segments: expected each segment once, found 'a' twice"),
    .display(
      "unknown segment",
      "driver = shift-register\ndigits = 4\nser = GPIO17\nsrclk = GPIO27\nrclk = GPIO22\n"
        + "segments = a b c d e f g h\n",
      "demo.conf:7: [display main] segments: unknown segment 'h'; expected a, b, c, d, e, f, g or dp"
    ),
    .display(
      "segments neither eight nor a preset",
      "driver = shift-register\ndigits = 4\nser = GPIO17\nsrclk = GPIO27\nrclk = GPIO22\n"
        + "segments = sparkfun\n",
      "demo.conf:7: [display main] segments: expected the segment on each output QA to QH: 8 of a b c d e f g dp, each once, or sparkfun-large-digit-driver, found \"sparkfun\""
    ),
    .display(
      "unknown first register",
      "driver = shift-register\ndigits = 4\nser = GPIO17\nsrclk = GPIO27\nrclk = GPIO22\n"
        + "first-register = right\n",
      "demo.conf:7: [display main] first-register: expected rightmost or leftmost, found \"right\""
    ),
    .matrix(
      "matrix keys fewer than rows times columns", "keys = KEY_1 KEY_2 KEY_3\n",
      "demo.conf:13: [keypad pad] keys: expected 4 key names, row by row (2 rows of 2 columns), found 3"
    ),
    .matrix(
      "matrix key not a kernel name", "keys = KEY_1 KEY_2 KEY_3 KEY_NUMERIC_STR\n",
      "demo.conf:13: [keypad pad] keys: unknown key 'KEY_NUMERIC_STR'; did you mean 'KEY_NUMERIC_STAR'?"
    ),
    .matrix(
      "matrix key given twice", "keys = KEY_1 KEY_2 KEY_1 KEY_4\n",
      "demo.conf:13: [keypad pad] keys: expected each key once, found KEY_1 twice"),
    .afterBase(
      "matrix with too many rows",
      "[keymap pad]\n[keypad pad]\ndriver = gpio-matrix\nkeymap = pad\n"
        + "rows = GPIO0 GPIO1 GPIO2 GPIO3 GPIO4 GPIO5 GPIO6 GPIO7 GPIO8\ncolumns = GPIO12\n"
        + "keys = KEY_1\n",
      "demo.conf:11: [keypad pad] rows: expected 1 to 8 GPIO lines, found 9"),
    .afterBase(
      "matrix row listed twice",
      "[keymap pad]\n[keypad pad]\ndriver = gpio-matrix\nkeymap = pad\n"
        + "rows = GPIO5 GPIO5\ncolumns = GPIO12\nkeys = KEY_1 KEY_2\n",
      "demo.conf:11: [keypad pad] rows: expected each line once, found GPIO5 twice"),
    .afterBase(
      "matrix row that is also a column",
      "[keymap pad]\n[keypad pad]\ndriver = gpio-matrix\nkeymap = pad\n"
        + "rows = GPIO5 GPIO6\ncolumns = GPIO12 GPIO6\nkeys = KEY_1 KEY_2 KEY_3 KEY_4\n",
      "demo.conf:12: [keypad pad] columns: GPIO6 is also used by [keypad pad] rows (line 11); a GPIO line can be used only once"
    ),
    .buttons(
      "button not a kernel key name", "BTN_O = GPIO17\n",
      "demo.conf:11: [keypad pad] BTN_O: unknown key 'BTN_O'; did you mean 'BTN_0'?"),
    .buttons(
      "misspelt gpio-buttons key", "BTN_0 = GPIO17\ndebouce = 10ms\n",
      "demo.conf:12: [keypad pad] debouce: unknown key 'debouce'; did you mean 'debounce'?"),
    .buttons(
      "gpio-buttons key far from any", "BTN_0 = GPIO17\ncolour = red\n",
      "demo.conf:12: [keypad pad] colour: unknown key 'colour'; expected 'driver', 'keymap', 'bias', 'active-low', 'debounce', 'long-press' or a button such as BTN_0 = GPIO17"
    ),
    .buttons(
      "button named with long+", "long+BTN_0 = GPIO17\n",
      "demo.conf:11: [keypad pad] long+BTN_0: expected a kernel key name without prefix, found 'long+BTN_0'; a keymap binds long presses, as long+BTN_0 = ACTION"
    ),
    .buttons(
      "button given twice in another case", "BTN_0 = GPIO17\nbtn_0 = GPIO27\n",
      "demo.conf:12: [keypad pad] btn_0: given twice; first at line 11"),
    .buttons(
      "button given twice by two names of one code", "BTN_0 = GPIO17\nBTN_MISC = GPIO27\n",
      "demo.conf:12: [keypad pad] BTN_MISC: given twice; first at line 11 as BTN_0"),
    .buttons(
      "gpio-buttons without a button", "bias = pull-up\n",
      "demo.conf:8: [keypad pad]: missing a button; expected a key such as BTN_0 = GPIO17: the kernel key name the button sends and its GPIO line"
    ),
    .buttons(
      "long press out of range", "BTN_0 = GPIO17\nlong-press = 50ms\n",
      "demo.conf:12: [keypad pad] long-press: expected a duration from 100ms to 10s, found \"50ms\""
    ),
    .buttons(
      "debounce out of range", "BTN_0 = GPIO17\ndebounce = 2s\n",
      "demo.conf:12: [keypad pad] debounce: expected a duration from 0 to 1s, found \"2s\""),
    .buttons(
      "unknown bias", "BTN_0 = GPIO17\nbias = up\n",
      "demo.conf:12: [keypad pad] bias: expected pull-up, pull-down, disabled or as-is, found \"up\""
    ),
    .afterBase(
      "misspelt keypad driver reported alone",
      "[keymap pad]\n[keypad pad]\ndriver = gpio-button\nkeymap = pad\nBTN_0 = GPIO17\n",
      "demo.conf:9: [keypad pad] driver: unknown driver 'gpio-button'; did you mean 'gpio-buttons'?"
    ),
    .afterBase(
      "long press bound for a terminal keypad",
      "[keymap pad]\nBTN_0 = add home +1\nlong+BTN_0 = add home -1\n"
        + "[keypad console]\ndriver = terminal\nkeymap = pad\n",
      "demo.conf:9: [keymap pad] long+BTN_0: long presses come only from gpio-buttons keypads and TM1638 boards; keymap 'pad' is used only by keypad 'console'"
    ),
    .afterBase(
      "long press bound twice, prefixes in another order",
      "[keymap pad]\nlong+shift+BTN_0 = undo\nSHIFT+LONG+btn_0 = reset\n",
      "demo.conf:9: [keymap pad] SHIFT+LONG+btn_0: given twice; first at line 8 as long+shift+BTN_0"
    ),
  ]
}
