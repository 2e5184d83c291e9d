import ScoreboardConfig
import TestExpectations
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
      "control characters in a line", "\u{1B}[2J\u{7}\n",
      "demo.conf:7: [field home]: expected 'key = value', found \"\\u{1B}[2J\\u{7}\""),
    .afterBase(
      "control character in a key", "lab\u{1B}el = x\n",
      "demo.conf:7: [field home] lab\\u{1B}el: unknown key 'lab\\u{1B}el'; did you mean 'label'?"),
    .afterBase(
      "control character in a value", "max = 9\u{9B}0m\n",
      "demo.conf:7: [field home] max: expected a whole number from 0 to 99, found \"9\\u{9B}0m\""
    ),
    .afterBase(
      "control character in a section name", "[field \u{7F}x]\n",
      "demo.conf:7: [field \\u{7F}x]: expected a name of a lowercase letter, then lowercase "
        + "letters, digits, '-' or '_', found \"\\u{7F}x\""),
    .afterBase(
      "value without a key", "= 3\n",
      "demo.conf:7: [field home]: expected a key before '=', found nothing"),
    .afterBase(
      "unknown section kind", "[feild away]\n",
      "demo.conf:7: [feild away]: unknown section kind 'feild'; expected scoreboard, field, display, keypad, keymap, horn, label, mqtt, web or sets"
    ),
    .afterBase(
      "empty section header", "[]\n",
      "demo.conf:7: []: expected a section kind (scoreboard, field, display, keypad, keymap, horn, label, mqtt, web or sets), found nothing"
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
      "demo.conf:7: [field home] colour: unknown key 'colour'; expected 'label', 'display', 'position', 'digits', 'values', 'min', 'max', 'placeholder', 'entry', 'commit-on-last-digit', 'default', 'type', 'length', 'count', 'tenths-below', 'resets', 'follows', 'blank-when-less-game-time', 'bonus', 'period', 'resets-at', 'resets-to', 'lengths', 'timeouts-of' or 13 others"
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
      "relative state file", "[scoreboard]\nstate-file = state\n",
      "demo.conf:8: [scoreboard] state-file: expected an absolute path such as /var/lib/scoreboardd/state, found \"state\""
    ),
    .afterBase(
      "relative control socket", "[scoreboard]\ncontrol-socket = ctl.sock\n",
      "demo.conf:8: [scoreboard] control-socket: expected an absolute path such as /run/scoreboardd/control, found \"ctl.sock\""
    ),
    .afterBase(
      "no control clients", "[scoreboard]\ncontrol-clients = 0\n",
      "demo.conf:8: [scoreboard] control-clients: expected a whole number from 1 to 64, found \"0\""
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
      text:
        "[display main]\ndriver = hd44780\ndigits = 4\n[field home]\nposition = 1\ndigits = 2\n",
      diagnostics:
        "demo.conf:2: [display main] driver: unknown driver 'hd44780'; expected terminal, s7s, serial-frame, serial-text, tm1637, tm1638, max7219, shift-register or ht16k33"
    ),
    MalformedConfiguration(
      problem: "display without driver",
      text: "[display main]\n[field home]\nposition = 1\ndigits = 2\n",
      diagnostics: "demo.conf:1: [display main]: missing required key 'driver'"),
    .display(
      "terminal display without digits", "driver = terminal\n",
      "demo.conf:1: [display main]: missing required key 'digits'"),
    .display(
      "misspelt serial driver", "driver = s7\nport = /dev/serial0\n",
      "demo.conf:2: [display main] driver: unknown driver 's7'; did you mean 's7s'?"),
    .display(
      "serial driver with an underscore", "driver = serial_text\ndigits = 4\n",
      "demo.conf:2: [display main] driver: unknown driver 'serial_text'; did you mean 'serial-text'?"
    ),
    .display(
      "serial display without a port", "driver = serial-frame\ndigits = 4\n",
      "demo.conf:1: [display main]: missing required key 'port'"),
    .display(
      "s7s display without a port", "driver = s7s\nbaud = 9600\n",
      "demo.conf:1: [display main]: missing required key 'port'"),
    .display(
      "relative port", "driver = serial-frame\ndigits = 4\nport = ttyUSB0\n",
      "demo.conf:4: [display main] port: expected an absolute path such as /dev/serial0, found \"ttyUSB0\""
    ),
    .display(
      "empty port", "driver = serial-frame\ndigits = 4\nport =\n",
      "demo.conf:4: [display main] port: expected an absolute path such as /dev/serial0, found nothing"
    ),
    .display(
      "several ports on a single-port driver",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0 /dev/ttyUSB1\n",
      "demo.conf:4: [display main] port: expected one serial port, found 2; only an s7s display takes a port per module"
    ),
    .display(
      "relative port among s7s ports", "driver = s7s\nport = /dev/serial0 ttyUSB0\n",
      "demo.conf:3: [display main] port: expected an absolute path such as /dev/serial0, found \"ttyUSB0\""
    ),
    .display(
      "s7s port listed twice", "driver = s7s\nport = /dev/serial0 /dev/ttyUSB0 /dev/serial0\n",
      "demo.conf:3: [display main] port: expected each port once, found \"/dev/serial0\" twice"),
    .display(
      "s7s digits not 4 per port", "driver = s7s\nport = /dev/serial0 /dev/ttyUSB0\ndigits = 6\n",
      "demo.conf:4: [display main] digits: an s7s display has 4 digits per port: 2 ports make 8 digits, found 6"
    ),
    .display(
      "s7s reinit interval without a unit",
      "driver = s7s\nport = /dev/serial0\nreinit-interval = 30\n",
      "demo.conf:4: [display main] reinit-interval: expected 0 (never) or a duration from 1s to 60min, found \"30\"; add a unit: ms, s or min"
    ),
    .display(
      "s7s digits of one module", "driver = s7s\nport = /dev/serial0\ndigits = 8\n",
      "demo.conf:4: [display main] digits: an s7s display has 4 digits per port: 1 port makes 4 digits, found 8"
    ),
    .display(
      "s7s with more digits than a display has",
      "driver = s7s\nport = " + (1...17).map { "/dev/s\($0)" }.joined(separator: " ") + "\n",
      "demo.conf:3: [display main] port: an s7s display has 4 digits per port: 17 ports make 68 digits, but a display has at most 64"
    ),
    .display(
      "baud Linux cannot set",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nbaud = 250000\n",
      "demo.conf:5: [display main] baud: expected a baud rate Linux can set: 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600 or 1000000, found \"250000\""
    ),
    .display(
      "baud not a number", "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nbaud = fast\n",
      "demo.conf:5: [display main] baud: expected a baud rate Linux can set: 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600 or 1000000, found \"fast\""
    ),
    .display(
      "baud the S7S cannot take", "driver = s7s\nport = /dev/serial0\nbaud = 1200\n",
      "demo.conf:4: [display main] baud: expected a baud rate both the S7S and Linux support: 2400, 4800, 9600, 19200, 38400, 57600, 115200, 500000 or 1000000, found \"1200\""
    ),
    .display(
      "S7S baud Linux cannot set", "driver = s7s\nport = /dev/serial0\nbaud = 14400\n",
      "demo.conf:4: [display main] baud: expected a baud rate both the S7S and Linux support: 2400, 4800, 9600, 19200, 38400, 57600, 115200, 500000 or 1000000, found \"14400\""
    ),
    .display(
      "unknown parity", "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nparity = mark\n",
      "demo.conf:5: [display main] parity: expected none, even or odd, found \"mark\""),
    .display(
      "data bits out of range",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\ndata-bits = 9\n",
      "demo.conf:5: [display main] data-bits: expected a whole number from 5 to 8, found \"9\""),
    .display(
      "stop bits neither 1 nor 2",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nstop-bits = 1.5\n",
      "demo.conf:5: [display main] stop-bits: expected 1 or 2, found \"1.5\""),
    .display(
      "unknown flow control",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nflow-control = xonxoff\n",
      "demo.conf:5: [display main] flow-control: expected none or rtscts, found \"xonxoff\""),
    .display(
      "S7S line other than 8N1",
      "driver = s7s\nport = /dev/serial0\nparity = even\nflow-control = rtscts\n",
      "demo.conf:4: [display main] parity: expected none (an S7S talks 8N1 without flow control), found \"even\""
        + "\n"
        + "demo.conf:5: [display main] flow-control: expected none (an S7S talks 8N1 without flow control), found \"rtscts\""
    ),
    .display(
      "address out of range",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\naddress = 255\n",
      "demo.conf:5: [display main] address: expected a whole number from 0 to 254, found \"255\""),
    .display(
      "ack timeout without ack",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nack-timeout = 200ms\n",
      "demo.conf:5: [display main] ack-timeout: needs ack = yes: without acknowledgements nothing is awaited or retried"
    ),
    .display(
      "retries with ack = no",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nack = no\nretries = 5\n",
      "demo.conf:6: [display main] retries: needs ack = yes: without acknowledgements nothing is awaited or retried"
    ),
    .display(
      "ack timeout out of range",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nack = yes\nack-timeout = 5ms\n",
      "demo.conf:6: [display main] ack-timeout: expected a duration from 10ms to 5s, found \"5ms\""),
    .display(
      "too many retries",
      "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nack = yes\nretries = 11\n",
      "demo.conf:6: [display main] retries: expected a whole number from 0 to 10, found \"11\""),
    .display(
      "serial-frame with too many digits",
      "driver = serial-frame\ndigits = 65\nport = /dev/ttyUSB0\n",
      "demo.conf:3: [display main] digits: expected a whole number from 1 to 64, found \"65\""),
    .display(
      "serial-text without a template", "driver = serial-text\ndigits = 4\nport = /dev/ttyUSB0\n",
      "demo.conf:1: [display main]: missing required key 'template'"),
    .display(
      "template with an unclosed placeholder",
      "driver = serial-text\ndigits = 4\nport = /dev/ttyUSB0\ntemplate = {home\\r\\n\n",
      "demo.conf:5: [display main] template: '{' without a closing '}'"),
    .display(
      "template with an unknown escape",
      "driver = serial-text\ndigits = 4\nport = /dev/ttyUSB0\ntemplate = {home}\\e\n",
      "demo.conf:5: [display main] template: unknown escape '\\e'; expected \\r, \\n, \\t, \\\\ or \\xHH"
    ),
    .display(
      "template naming a misspelt field",
      "driver = serial-text\ndigits = 4\nport = /dev/ttyUSB0\ntemplate = {hmoe}\\r\n",
      "demo.conf:5: [display main] template: field 'hmoe' is not on display 'main'; did you mean 'home'?"
    ),
    .display(
      "template naming an unknown field",
      "driver = serial-text\ndigits = 4\nport = /dev/ttyUSB0\ntemplate = {home} {clock}\n",
      "demo.conf:5: [display main] template: field 'clock' is not on display 'main'; expected 'home'"
    ),
    MalformedConfiguration(
      problem: "template naming a field of another display",
      text: """
        [display main]
        driver = serial-text
        digits = 4
        port = /dev/ttyUSB0
        template = {home}-{away}\\r\\n
        [display side]
        driver = terminal
        digits = 2
        [field home]
        display = main
        position = 1
        digits = 2
        [field away]
        display = side
        position = 1
        digits = 2

        """,
      diagnostics:
        "demo.conf:5: [display main] template: field 'away' is on display 'side', not on display 'main'"
    ),
    MalformedConfiguration(
      problem: "two displays on one port",
      text: """
        [display main]
        driver = s7s
        port = /dev/serial0 /dev/ttyUSB0
        [display side]
        driver = serial-frame
        digits = 4
        port = /dev/ttyUSB0
        [field home]
        display = main
        position = 1
        digits = 2

        """,
      diagnostics:
        "demo.conf:7: [display side] port: /dev/ttyUSB0 is also the port of [display main] (line 3); a serial port drives one display"
    ),
    .display(
      "serial key on a terminal display", "driver = terminal\ndigits = 4\nbaud = 9600\n",
      "demo.conf:4: [display main] baud: applies only to drivers s7s, serial-frame and serial-text, not to driver terminal"
    ),
    .display(
      "serial-frame key on an s7s display", "driver = s7s\nport = /dev/serial0\nack = yes\n",
      "demo.conf:4: [display main] ack: applies only to driver serial-frame, not to driver s7s"),
    .display(
      "misspelt serial key", "driver = serial-frame\ndigits = 4\nport = /dev/ttyUSB0\nadress = 3\n",
      "demo.conf:5: [display main] adress: unknown key 'adress'; did you mean 'address'?"),
    .display(
      "unknown final frame", "driver = terminal\ndigits = 4\non-stop = off\n",
      "demo.conf:4: [display main] on-stop: expected keep or blank, found \"off\""),
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
      "key bound again by another of its names",
      "[keymap pad]\nKEY_COFFEE = undo\nKEY_SCREENLOCK = reset\n",
      "demo.conf:9: [keymap pad] KEY_SCREENLOCK: binds the key of KEY_COFFEE (line 8) again: the kernel gives key code 152 both names; bind it once"
    ),
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

  @Test(arguments: cases + gpioCases + evdevCases + i2cCases + mqttCases + webCases)
  func reportsTheProblem(_ configuration: MalformedConfiguration) {
    let error = expectError(ConfigurationError.self) {
      try Configuration.parse(configuration.text, path: "demo.conf")
    }
    #expect(error?.description == configuration.diagnostics)
  }
}
