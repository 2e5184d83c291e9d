import ScoreboardConfig
import Testing

extension MalformedConfigurationTests {
  static let evdevCases: [MalformedConfiguration] = [
    .evdev(
      "device and name", "device = /dev/input/event3\nname = SIGMACHIP USB Keyboard\n",
      "demo.conf:12: [keypad pad] name: given with 'device' (line 11); a keypad is found by its device or by its name, not both"
    ),
    .evdev(
      "name before device", "name = SIGMACHIP USB Keyboard\ndevice = /dev/input/event3\n",
      "demo.conf:12: [keypad pad] device: given with 'name' (line 11); a keypad is found by its device or by its name, not both"
    ),
    .evdev(
      "neither device nor name", "grab = yes\n",
      "demo.conf:8: [keypad pad]: missing required key 'device' or 'name': the keypad's event device (ls -l /dev/input/by-id/) or the name the kernel gives it (cat /proc/bus/input/devices)"
    ),
    .evdev(
      "relative evdev device path", "device = event3\n",
      "demo.conf:11: [keypad pad] device: expected an absolute path such as /dev/input/event0, found \"event3\""
    ),
    .evdev(
      "empty device", "device =\n",
      "demo.conf:11: [keypad pad] device: expected an absolute path such as /dev/input/event0, found nothing"
    ),
    .evdev(
      "two devices", "device = /dev/input/event3 /dev/input/event4\n",
      "demo.conf:11: [keypad pad] device: expected one device, found 2; each keypad has its own [keypad NAME] section"
    ),
    .evdev(
      "pattern with an unclosed bracket", "device = /dev/input/event[0-9\n",
      "demo.conf:11: [keypad pad] device: expected ']' to close the '[' of the pattern, found \"/dev/input/event[0-9\""
    ),
    .evdev(
      "empty name", "name =\n",
      "demo.conf:11: [keypad pad] name: expected the name the kernel gives the keypad, as cat /proc/bus/input/devices shows it, found nothing"
    ),
    .evdev(
      "only quotes for a name", "name = \"\"\n",
      "demo.conf:11: [keypad pad] name: expected the name the kernel gives the keypad, as cat /proc/bus/input/devices shows it, found nothing between the quotes"
    ),
    .evdev(
      "name with an unclosed quote", "name = \"SIGMACHIP USB Keyboard\n",
      "demo.conf:11: [keypad pad] name: expected a quote at the end of the name, as at its start, found \"\"SIGMACHIP USB Keyboard\""
    ),
    .evdev(
      "numlock-led as a boolean", "device = /dev/input/event3\nnumlock-led = yes\n",
      "demo.conf:12: [keypad pad] numlock-led: expected on, off or leave, found \"yes\""),
    .evdev(
      "required not a boolean", "device = /dev/input/event3\nrequired = maybe\n",
      "demo.conf:12: [keypad pad] required: expected yes or no (or true/false, on/off, 1/0), found \"maybe\""
    ),
    .evdev(
      "grab not a boolean", "device = /dev/input/event3\ngrab = always\n",
      "demo.conf:12: [keypad pad] grab: expected yes or no (or true/false, on/off, 1/0), found \"always\""
    ),
    .evdev(
      "ignore-numlock not a boolean", "device = /dev/input/event3\nignore-numlock = 2\n",
      "demo.conf:12: [keypad pad] ignore-numlock: expected yes or no (or true/false, on/off, 1/0), found \"2\""
    ),
    .evdev(
      "misspelt evdev key", "device = /dev/input/event3\nnumlock_led = on\n",
      "demo.conf:12: [keypad pad] numlock_led: unknown key 'numlock_led'; did you mean 'numlock-led'?"
    ),
    .evdev(
      "GPIO keypad key on an evdev keypad", "device = /dev/input/event3\ndebounce = 20ms\n",
      "demo.conf:12: [keypad pad] debounce: applies only to drivers gpio-buttons and gpio-matrix, not to driver evdev"
    ),
    .evdev(
      "button on an evdev keypad", "device = /dev/input/event3\nBTN_0 = GPIO17\n",
      "demo.conf:12: [keypad pad] BTN_0: unknown key 'BTN_0'; expected 'driver', 'keymap', 'device', 'name', 'grab', 'ignore-numlock', 'numlock-led' or 'required'"
    ),
    .afterBase(
      "evdev key on a terminal keypad",
      "[keymap pad]\n[keypad pad]\ndriver = terminal\nkeymap = pad\ngrab = no\n",
      "demo.conf:11: [keypad pad] grab: applies only to driver evdev, not to driver terminal"),
    .afterBase(
      "name on a terminal keypad",
      "[keymap pad]\n[keypad pad]\ndriver = terminal\nkeymap = pad\nname = console\n",
      "demo.conf:11: [keypad pad] name: applies only to driver evdev, not to driver terminal"),
    .buttons(
      "device on a gpio-buttons keypad", "BTN_0 = GPIO17\ndevice = /dev/input/event3\n",
      "demo.conf:12: [keypad pad] device: applies only to drivers terminal and evdev, not to driver gpio-buttons"
    ),
    .afterBase(
      "misspelt evdev driver",
      "[keymap pad]\n[keypad pad]\ndriver = evdv\nkeymap = pad\ndevice = /dev/input/event3\n",
      "demo.conf:9: [keypad pad] driver: unknown driver 'evdv'; did you mean 'evdev'?"),
    .afterBase(
      "two keypads on one device",
      "[keymap pad]\n[keypad home]\ndriver = evdev\nkeymap = pad\ndevice = /dev/input/event3\n"
        + "[keypad away]\ndriver = evdev\nkeymap = pad\ndevice = /dev/input/event3\n",
      "demo.conf:15: [keypad away] device: /dev/input/event3 is also the device of [keypad home] (line 11); a device is read by one keypad"
    ),
    .afterBase(
      "two keypads of one name",
      "[keymap pad]\n[keypad home]\ndriver = evdev\nkeymap = pad\nname = SIGMACHIP USB Keyboard\n"
        + "[keypad away]\ndriver = evdev\nkeymap = pad\nname = \"SIGMACHIP USB Keyboard\"\n",
      "demo.conf:15: [keypad away] name: \"SIGMACHIP USB Keyboard\" is also the name of [keypad home] (line 11); keypads of one model have one name: choose each by the USB port it is plugged into, as device = /dev/input/by-path/...-event-kbd"
    ),
    .afterBase(
      "unknown kind to repeat", "[keymap pad]\nrepeat = add ad\n",
      "demo.conf:8: [keymap pad] repeat: unknown kind of action 'ad'; expected digit, backspace, commit, cancel, next, previous, select, add, set, undo, reset, brightness, blank, start, stop, start-stop, adjust, reset-clock, horn, pair, next-period, timeout, penalty or none"
    ),
    .afterBase(
      "up among the kinds to repeat", "[keymap pad]\nrepeat = up\n",
      "demo.conf:8: [keymap pad] repeat: unknown kind of action 'up'; up and down are actions of kind add; expected digit, backspace, commit, cancel, next, previous, select, add, set, undo, reset, brightness, blank, start, stop, start-stop, adjust, reset-clock, horn, pair, next-period, timeout, penalty or none"
    ),
    .afterBase(
      "none with other kinds to repeat", "[keymap pad]\nrepeat = none add\n",
      "demo.conf:8: [keymap pad] repeat: expected none alone, found \"none add\""),
    .afterBase(
      "nothing to repeat", "[keymap pad]\nrepeat =\n",
      "demo.conf:8: [keymap pad] repeat: expected the kinds of action a held key repeats, separated by spaces, or none, found nothing"
    ),
    .afterBase(
      "kind to repeat given twice", "[keymap pad]\nrepeat = add backspace ADD\n",
      "demo.conf:8: [keymap pad] repeat: expected each kind once, found 'add' twice"),
    .afterBase(
      "misspelt repeat", "[keymap pad]\nrepaet = add\n",
      "demo.conf:8: [keymap pad] repaet: unknown key 'repaet'; did you mean 'repeat'?"),
    .afterBase(
      "repeat given twice in another case", "[keymap pad]\nrepeat = add\nREPEAT = none\n",
      "demo.conf:9: [keymap pad] REPEAT: given twice; first at line 8"),
  ]
}
