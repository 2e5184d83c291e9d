extension KeypadDriver {
  /// Every keypad driver the configuration knows, each reading its own keys.
  static let parsers: [DriverParser<KeypadDriver>] = [
    DriverParser(name: "terminal", keys: ["device"]) { reader in
      .terminal(TerminalKeypadOptions(device: reader.path("device")))
    },
    DriverParser(name: "gpio-buttons", keys: GPIOButtonsKeypadOptions.keys) {
      reader, buttonEntries in
      GPIOButtonsKeypadOptions.parse(&reader, buttonEntries: buttonEntries).map(
        KeypadDriver.gpioButtons)
    },
    DriverParser(
      name: "gpio-matrix", keys: GPIOMatrixKeypadOptions.keys,
      requiredKeys: ["rows", "columns", "keys"]
    ) { reader in
      GPIOMatrixKeypadOptions.parse(&reader).map(KeypadDriver.gpioMatrix)
    },
    DriverParser(name: "evdev", keys: EvdevKeypadOptions.keys) { reader in
      EvdevKeypadOptions.parse(&reader).map(KeypadDriver.evdev)
    },
    // A board is one section, its display's: this only says so.
    DriverParser(name: "tm1638", keys: []) { reader in
      reader.report(
        "a TM1638 board's buttons are read through its [display NAME] section: name the "
          + "keymap there (keymap = KEYMAP), and the keypad takes the display's name",
        key: "driver")
      return nil
    },
  ]
}
