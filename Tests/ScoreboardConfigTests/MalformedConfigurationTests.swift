import ScoreboardConfig
import Testing

@Suite struct MalformedConfigurationTests {
  static let cases: [MalformedConfiguration] = [
    .afterBase(
      "key without a value", "[field away]\nposition = 3\ndigits 2\n",
      "demo.conf:7: [field away]: missing required key 'digits'" + "\n"
        + "demo.conf:9: [field away]: expected 'key = value', found \"digits 2\""),
    .afterBase(
      "unclosed section header", "[field away\nposition = 3\n",
      "demo.conf:7: expected ']' to end the section header, found \"[field away\""),
    .afterBase(
      "text after a section header", "[field away] x\nposition = 3\ndigits = 2\n",
      "demo.conf:7: [field away]: expected nothing after ']', found \"x\""),
    .afterBase(
      "indented continuation", "label = HOME\n  TEAM\n",
      "demo.conf:8: [field home]: indented line; values cannot continue on the next line"),
    MalformedConfiguration(
      problem: "line too long",
      text: MalformedConfiguration.base + "label = " + String(repeating: "x", count: 200) + "\n",
      diagnostics: "demo.conf:7: [field home]: line too long: expected at most 198 bytes, found 208"
    ),
    MalformedConfiguration(
      problem: "key before any section", text: "log-level = debug\n" + MalformedConfiguration.base,
      diagnostics:
        "demo.conf:1: key 'log-level' is outside any section; expected a section header such as [scoreboard] before it"
    ),
    .afterBase(
      "NUL character", "label = A\u{0}B\n",
      "demo.conf:7: [field home]: unexpected NUL character"),
    .afterBase(
      "value without a key", "= 3\n",
      "demo.conf:7: [field home]: expected a key before '=', found nothing"),
    .afterBase(
      "unknown section kind", "[feild away]\n",
      "demo.conf:7: [feild away]: unknown section kind 'feild'; expected scoreboard, field, display, keypad or keymap"
    ),
    .afterBase(
      "empty section header", "[]\n",
      "demo.conf:7: []: expected a section kind (scoreboard, field, display, keypad or keymap), found nothing"
    ),
    .afterBase(
      "section without its name", "[field]\n",
      "demo.conf:7: [field]: expected a name after 'field', as in [field home]"),
    .afterBase(
      "scoreboard with a name", "[scoreboard main]\n",
      "demo.conf:7: [scoreboard main]: expected no name after 'scoreboard', found \"main\""),
    .afterBase(
      "name not in lowercase", "[field Away]\n",
      "demo.conf:7: [field Away]: expected a name of a lowercase letter, then lowercase letters, digits, '-' or '_', found \"Away\""
    ),
    .afterBase(
      "section defined twice", "[field home]\nposition = 3\ndigits = 2\n",
      "demo.conf:7: [field home]: defined twice; first at line 4"),
    .afterBase(
      "key given twice", "digits = 3\n",
      "demo.conf:7: [field home] digits: given twice; first at line 6"),
    .afterBase(
      "unknown key near a known one", "digts = 2\n",
      "demo.conf:7: [field home] digts: unknown key 'digts'; did you mean 'digits'?"),
    .afterBase(
      "unknown key far from any", "colour = red\n",
      "demo.conf:7: [field home] colour: unknown key 'colour'; expected 'label', 'display', 'position', 'digits', 'values', 'min', 'max', 'placeholder', 'entry', 'commit-on-last-digit' or 'default'"
    ),
    .afterBase(
      "digits not a number", "[field away]\nposition = 3\ndigits = x\n",
      "demo.conf:9: [field away] digits: expected a whole number from 1 to 9, found \"x\""),
    .afterBase(
      "digits out of range", "[field away]\nposition = 3\ndigits = 12\n",
      "demo.conf:9: [field away] digits: expected a whole number from 1 to 9, found \"12\""),
    .afterBase(
      "empty value", "label =\n",
      "demo.conf:7: [field home] label: expected a label, found nothing"),
    .afterBase(
      "value emptied by a comment", "label = # none\n",
      "demo.conf:7: [field home] label: expected a label, found nothing"),
    .afterBase(
      "duration without a unit", "[scoreboard]\nblink-interval = 500\n",
      "demo.conf:8: [scoreboard] blink-interval: expected a duration from 50ms to 5s, found \"500\"; add a unit: ms, s or min"
    ),
    .afterBase(
      "duration out of range", "[scoreboard]\nreset-window = 20s\n",
      "demo.conf:8: [scoreboard] reset-window: expected a duration from 500ms to 10s, found \"20s\""
    ),
    .afterBase(
      "duration with an unknown unit", "[scoreboard]\nedit-timeout = 1h\n",
      "demo.conf:8: [scoreboard] edit-timeout: expected 0 (never) or a duration from 1s to 60min, found \"1h\"; the units are ms, s and min"
    ),
    .afterBase(
      "unknown choice", "[scoreboard]\ncursor = underline\n",
      "demo.conf:8: [scoreboard] cursor: expected blink, dp or none, found \"underline\""),
    .afterBase(
      "unknown log level", "[scoreboard]\nlog-level = verbose\n",
      "demo.conf:8: [scoreboard] log-level: expected error, warning, notice, info or debug, found \"verbose\""
    ),
    .afterBase(
      "brightness out of range", "[scoreboard]\nbrightness = 16\n",
      "demo.conf:8: [scoreboard] brightness: expected a whole number from 0 to 15, found \"16\""),
    .afterBase(
      "not a boolean", "commit-on-last-digit = maybe\n",
      "demo.conf:7: [field home] commit-on-last-digit: expected yes or no (or true/false, on/off, 1/0), found \"maybe\""
    ),
    .afterBase(
      "missing position", "[field away]\ndigits = 2\n",
      "demo.conf:7: [field away]: missing required key 'position'"),
    .afterBase(
      "number field without digits", "[field away]\nposition = 3\n",
      "demo.conf:7: [field away]: missing required key 'digits'"),
    .afterBase(
      "unknown display", "[field away]\ndisplay = mian\nposition = 3\ndigits = 2\n",
      "demo.conf:8: [field away] display: unknown display 'mian'; did you mean 'main'?"),
    .afterBase(
      "field does not fit its display", "[field away]\nposition = 3\ndigits = 3\n",
      "demo.conf:8: [field away] position: field needs cells 3 to 5, but display 'main' has 4 digits"
    ),
    .afterBase(
      "fields overlap", "[field away]\nposition = 2\ndigits = 2\n",
      "demo.conf:8: [field away] position: overlaps field 'home' on display 'main': this field takes cells 2 to 3, 'home' takes cells 1 to 2"
    ),
    .afterBase(
      "max does not fit in digits", "max = 100\n",
      "demo.conf:7: [field home] max: expected a whole number from 0 to 99, found \"100\""),
    .afterBase(
      "max below min", "min = 10\nmax = 5\n",
      "demo.conf:8: [field home] max: expected a whole number from 10 to 99, found \"5\""),
    .afterBase(
      "default out of range", "max = 50\ndefault = 60\n",
      "demo.conf:8: [field home] default: expected a whole number from 0 to 50, found \"60\""),
    .afterBase(
      "unshowable list value", "[field period]\nposition = 3\nvalues = 1 2 W\n",
      "demo.conf:9: [field period] values: \"W\" cannot be shown on seven segments: 'W' has no legible shape"
    ),
    .afterBase(
      "list value given twice", "[field period]\nposition = 3\nvalues = 1 2 1\n",
      "demo.conf:9: [field period] values: expected each value once, found \"1\" twice"),
    .afterBase(
      "list value wider than digits", "[field period]\nposition = 3\ndigits = 1\nvalues = 1 OT\n",
      "demo.conf:10: [field period] values: expected values of at most 1 cell (digits = 1), found \"OT\" of 2 cells"
    ),
    .afterBase(
      "number key on a list field", "[field period]\nposition = 3\nvalues = 1 2\nmax = 2\n",
      "demo.conf:10: [field period] max: applies only to number fields, not to a field with 'values'"
    ),
    .afterBase(
      "list default not among the values",
      "[field period]\nposition = 3\nvalues = 1 2\ndefault = 3\n",
      "demo.conf:10: [field period] default: expected one of the values 1 or 2, found \"3\""),
    MalformedConfiguration(
      problem: "unknown display driver",
      text: "[display main]\ndriver = tm1637\ndigits = 4\n[field home]\nposition = 1\ndigits = 2\n",
      diagnostics: "demo.conf:2: [display main] driver: unknown driver 'tm1637'; expected terminal"),
    MalformedConfiguration(
      problem: "display without driver and digits",
      text: "[display main]\n[field home]\nposition = 1\ndigits = 2\n",
      diagnostics:
        "demo.conf:1: [display main]: missing required key 'driver'" + "\n"
        + "demo.conf:1: [display main]: missing required key 'digits'"),
    .afterBase(
      "field without display when there are two", "[display side]\ndriver = terminal\ndigits = 4\n",
      "demo.conf:4: [field home]: missing required key 'display'; there is more than one display: main and side"
    ),
    .afterBase(
      "unknown kernel key name", "[keymap pad]\nKEY_KP_7 = digit 7\n",
      "demo.conf:8: [keymap pad] KEY_KP_7: unknown key 'KEY_KP_7'; did you mean 'KEY_KP7'?"),
    .afterBase(
      "unknown shifted key name", "[keymap pad]\nshift+KEY_TABB = previous\n",
      "demo.conf:8: [keymap pad] shift+KEY_TABB: unknown key 'shift+KEY_TABB'; did you mean 'shift+KEY_TAB'?"
    ),
    .afterBase(
      "malformed action", "[keymap pad]\nKEY_KP7 = digit 10\n",
      "demo.conf:8: [keymap pad] KEY_KP7: 'digit' takes one digit 0-9, as in 'digit 7'"),
    .afterBase(
      "action on an unknown field", "[keymap pad]\nKEY_KPPLUS = add hme +1\n",
      "demo.conf:8: [keymap pad] KEY_KPPLUS: unknown field 'hme' in \"add hme +1\"; did you mean 'home'?"
    ),
    .afterBase(
      "set to a value the field cannot hold", "[keymap pad]\nKEY_R = set home 120\n",
      "demo.conf:8: [keymap pad] KEY_R: expected a whole number from 0 to 99 for field 'home', found \"120\""
    ),
    .afterBase(
      "key bound twice in another case", "[keymap pad]\nKEY_KP7 = digit 7\nkey_kp7 = digit 8\n",
      "demo.conf:9: [keymap pad] key_kp7: given twice; first at line 8"),
    .afterBase(
      "unknown keymap", "[keymap numpad]\n[keypad pad]\ndriver = terminal\nkeymap = numpd\n",
      "demo.conf:10: [keypad pad] keymap: unknown keymap 'numpd'; did you mean 'numpad'?"),
    .afterBase(
      "keypad without a keymap section", "[keypad pad]\ndriver = terminal\nkeymap = pad\n",
      "demo.conf:9: [keypad pad] keymap: unknown keymap 'pad'; there is no [keymap NAME] section"),
    .afterBase(
      "relative device path",
      "[keymap pad]\n[keypad pad]\ndriver = terminal\nkeymap = pad\ndevice = tty2\n",
      "demo.conf:11: [keypad pad] device: expected an absolute path such as /dev/tty2, found \"tty2\""
    ),
    .afterBase(
      "key of another section's driver",
      "[keymap pad]\n[keypad pad]\ndriver = terminal\nkeymap = pad\nfooter = x\n",
      "demo.conf:11: [keypad pad] footer: unknown key 'footer'; expected 'driver', 'keymap' or 'device'"
    ),
    MalformedConfiguration(
      problem: "no display and no field", text: "[scoreboard]\nlog-level = debug\n",
      diagnostics:
        "demo.conf:2: no display; expected at least one section such as [display main]" + "\n"
        + "demo.conf:2: no field; expected at least one section such as [field home]"),
  ]

  @Test(arguments: cases)
  func reportsTheProblem(_ configuration: MalformedConfiguration) {
    let error = #expect(throws: ConfigurationError.self) {
      try Configuration.parse(configuration.text, path: "demo.conf")
    }
    #expect(error?.description == configuration.diagnostics)
  }
}
