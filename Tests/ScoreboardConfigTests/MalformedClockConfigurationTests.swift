import ScoreboardConfig
import TestExpectations
import Testing

/// Clocks, horns and their keys wrongly configured, and what the daemon says about it.
@Suite struct MalformedClockConfigurationTests {
  /// A valid file of ten lines: a display of 12 cells, a 10:00 game clock at cells 1-4
  /// and home at cells 7-8 (cells 5-6 and 9-12 are free); `lines` start at line 11.
  static func clocks(_ problem: String, _ lines: String, _ diagnostics: String)
    -> MalformedConfiguration
  {
    MalformedConfiguration(
      problem: problem,
      text: "[display main]\ndriver = terminal\ndigits = 12\n"
        + "[field game]\ntype = clock\nposition = 1\nlength = 10:00\n"
        + "[field home]\nposition = 7\ndigits = 2\n" + lines,
      diagnostics: diagnostics)
  }

  static let cases: [MalformedConfiguration] = [
    clocks(
      "game clock length with 75 seconds",
      "[field half]\ntype = clock\nposition = 9\nlength = 12:75\n",
      "demo.conf:14: [field half] length: expected a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9), more than 0 and at most 99:59, found \"12:75\""
    ),
    clocks(
      "shot clock length over 99 seconds",
      "[field shot]\ntype = shot-clock\nposition = 5\nlength = 1:40\n",
      "demo.conf:14: [field shot] length: expected a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9), more than 0 and at most 99, found \"1:40\""
    ),
    clocks(
      "zero length", "[field half]\ntype = clock\nposition = 9\nlength = 0\n",
      "demo.conf:14: [field half] length: expected a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9), more than 0 and at most 99:59, found \"0\""
    ),
    clocks(
      "game clock without a length", "[field half]\ntype = clock\nposition = 9\n",
      "demo.conf:11: [field half]: missing required key 'length', the period length (such as length = 10:00)"
    ),
    clocks(
      "shot clock without a length or resets", "[field shot]\ntype = shot-clock\nposition = 5\n",
      "demo.conf:11: [field shot]: missing required key 'length', the period length (such as length = 10:00), or 'resets' (such as resets = 24 14)"
    ),
    clocks(
      "tenths-below nonsense",
      "[field half]\ntype = clock\nposition = 9\nlength = 20:00\ntenths-below = soon\n",
      "demo.conf:15: [field half] tenths-below: expected never, always or a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9), more than 0 and at most 99:59, found \"soon\""
    ),
    clocks(
      "count nonsense",
      "[field half]\ntype = clock\nposition = 9\nlength = 20:00\ncount = sideways\n",
      "demo.conf:15: [field half] count: expected down or up, found \"sideways\""),
    clocks(
      "type nonsense", "[field half]\ntype = timer\nposition = 9\nlength = 20:00\n",
      "demo.conf:12: [field half] type: expected number, list, clock, shot-clock or penalties, found \"timer\""
    ),
    clocks(
      "resets above the length",
      "[field shot]\ntype = shot-clock\nposition = 5\nlength = 24\nresets = 30 14\n",
      "demo.conf:15: [field shot] resets: expected resets of at most the length, 24, found 30"),
    clocks(
      "resets nonsense", "[field shot]\ntype = shot-clock\nposition = 5\nresets = 24 x 0\n",
      "demo.conf:14: [field shot] resets: expected times from 0.1 to 99 separated by spaces, such as 24 14, found \"x\""
        + "\n"
        + "demo.conf:14: [field shot] resets: expected times from 0.1 to 99 separated by spaces, such as 24 14, found \"0\""
    ),
    clocks(
      "follows a number field",
      "[field shot]\ntype = shot-clock\nposition = 5\nresets = 24 14\nfollows = home\n",
      "demo.conf:15: [field shot] follows: field 'home' is not a clock (type = clock or shot-clock)"
    ),
    clocks(
      "follows an unknown field",
      "[field shot]\ntype = shot-clock\nposition = 5\nresets = 24 14\nfollows = gmae\n",
      "demo.conf:15: [field shot] follows: unknown field 'gmae'; did you mean 'game'?"),
    clocks(
      "follows itself",
      "[field shot]\ntype = shot-clock\nposition = 5\nresets = 24 14\nfollows = shot\n",
      "demo.conf:15: [field shot] follows: a clock cannot follow itself"),
    clocks(
      "follows a clock that follows another",
      "[field shot]\ntype = shot-clock\nposition = 5\nresets = 24 14\nfollows = game\n"
        + "[field half]\ntype = clock\nposition = 9\nlength = 1:00\nfollows = shot\n",
      "demo.conf:20: [field half] follows: clock 'shot' follows another clock itself; follow the one it follows"
    ),
    clocks(
      "digits 3 on a game clock",
      "[field half]\ntype = clock\nposition = 9\ndigits = 3\nlength = 10:00\n",
      "demo.conf:14: [field half] digits: expected at least 4 digits for a game clock (MM:SS), found 3"
    ),
    clocks(
      "digits 1 on a shot clock",
      "[field shot]\ntype = shot-clock\nposition = 5\ndigits = 1\nresets = 24\n",
      "demo.conf:14: [field shot] digits: expected at least 2 digits for a shot clock (SS), found 1"
    ),
    clocks(
      "clock keys on a number field",
      "[field away]\nposition = 9\ndigits = 2\nlength = 10:00\nfollows = game\n",
      "demo.conf:14: [field away] length: applies only to clocks (type = clock or shot-clock)"
        + "\n"
        + "demo.conf:15: [field away] follows: applies only to clocks (type = clock or shot-clock)"),
    clocks(
      "number keys on a clock",
      "[field half]\ntype = clock\nposition = 9\nlength = 10:00\nmax = 99\n",
      "demo.conf:15: [field half] max: applies to number and list fields, not to a clock (its time starts at 'length', or at the first of 'resets')"
    ),
    clocks(
      "horn sounding for a number field", "[horn main]\ndriver = terminal\nclocks = game home\n",
      "demo.conf:13: [horn main] clocks: field 'home' is not a clock (type = clock or shot-clock)"),
    clocks(
      "horn sounding for an unknown clock", "[horn main]\ndriver = terminal\nclocks = gmae\n",
      "demo.conf:13: [horn main] clocks: unknown field 'gmae'; did you mean 'game'?"),
    clocks(
      "horn sounding for a clock with an error, reported once",
      "[field half]\ntype = clock\nposition = 9\nlength = 12:75\n[horn main]\ndriver = terminal\nclocks = half\n"
        + "[field shot]\ntype = shot-clock\nposition = 5\nresets = 24\nfollows = half\n"
        + "[keymap pad]\nKEY_S = start half\nKEY_R = reset-clock half 12:00\n",
      "demo.conf:14: [field half] length: expected a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9), more than 0 and at most 99:59, found \"12:75\""
    ),
    clocks(
      "horn without a driver", "[horn main]\nclocks = game\n",
      "demo.conf:11: [horn main]: missing required key 'driver'"),
    clocks(
      "gpio horn without a line", "[horn main]\ndriver = gpio\n",
      "demo.conf:11: [horn main]: missing required key 'line'"),
    clocks(
      "terminal horn with a line", "[horn main]\ndriver = terminal\nline = GPIO18\n",
      "demo.conf:13: [horn main] line: applies only to driver = gpio"),
    clocks(
      "horn duration out of range", "[horn main]\ndriver = terminal\nduration = 1min\n",
      "demo.conf:13: [horn main] duration: expected a duration from 10ms to 30s, found \"1min\""),
    clocks(
      "two horns on one line",
      "[horn main]\ndriver = gpio\nline = GPIO18\n[horn bell]\ndriver = gpio\nline = GPIO18\n",
      "demo.conf:16: [horn bell] line: GPIO18 is also used by [horn main] line (line 13); a GPIO line can be used only once"
    ),
    MalformedConfiguration(
      problem: "horn on a line of a display",
      text: "[display main]\ndriver = tm1637\ndigits = 4\nclk = GPIO23\ndio = GPIO24\n"
        + "[field game]\ntype = clock\nposition = 1\nlength = 10:00\n"
        + "[horn main]\ndriver = gpio\nline = GPIO24\n",
      diagnostics:
        "demo.conf:12: [horn main] line: GPIO24 is also used by [display main] dio (line 5); a GPIO line can be used only once"
    ),
    clocks(
      "unknown horn in a keymap",
      "[horn main]\ndriver = terminal\n[keymap pad]\nKEY_H = horn mian\n",
      "demo.conf:14: [keymap pad] KEY_H: unknown horn 'mian' in \"horn mian\"; did you mean 'main'?"
    ),
    clocks(
      "horn key without a horn", "[keymap pad]\nKEY_H = horn\n",
      "demo.conf:12: [keymap pad] KEY_H: \"horn\" sounds a horn, and none is configured; add a [horn NAME] section"
    ),
    clocks(
      "start on a number field", "[keymap pad]\nKEY_S = start home\n",
      "demo.conf:12: [keymap pad] KEY_S: field 'home' is not a clock; \"start\" acts on game"),
    clocks(
      "adjust on an unknown clock", "[keymap pad]\nKEY_A = adjust gmae +1\n",
      "demo.conf:12: [keymap pad] KEY_A: unknown field 'gmae' in \"adjust gmae +1\"; did you mean 'game'?"
    ),
    clocks(
      "reset-clock longer than the clock", "[keymap pad]\nKEY_R = reset-clock game 12:00\n",
      "demo.conf:12: [keymap pad] KEY_R: expected a time of at most the length of clock 'game', 10:00, in \"reset-clock game 12:00\""
    ),
    clocks(
      "set a clock to no time", "[keymap pad]\nKEY_S = set game 12:75\n",
      "demo.conf:12: [keymap pad] KEY_S: expected a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9) up to 10:00 for field 'game', found \"12:75\""
    ),
    clocks(
      "malformed adjust", "[keymap pad]\nKEY_A = adjust game 1\n",
      "demo.conf:12: [keymap pad] KEY_A: 'adjust' takes an optional clock and a signed number of seconds with at most one tenth digit, as in 'adjust game +1' or 'adjust -0.1'"
    ),
    .afterBase(
      "start without a clock", "[keymap pad]\nKEY_S = start\n",
      "demo.conf:8: [keymap pad] KEY_S: \"start\" acts on a clock, and none is configured; add a [field NAME] with type = clock"
    ),
  ]

  @Test(arguments: cases)
  func reportsTheProblem(_ configuration: MalformedConfiguration) {
    let error = expectError(ConfigurationError.self) {
      try Configuration.parse(configuration.text, path: "demo.conf")
    }
    #expect(error?.description == configuration.diagnostics)
  }
}
