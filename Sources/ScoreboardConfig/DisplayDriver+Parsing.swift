extension DisplayDriver {
  /// Every display driver the configuration knows, each reading its own keys.
  static let parsers: [DriverParser<DisplayDriver>] = [
    DriverParser(name: "terminal", keys: ["footer"], requiredKeys: ["digits"]) { reader in
      .terminal(TerminalDisplayOptions(footer: reader.text("footer", expected: "a footer text")))
    },
    DriverParser(name: "s7s", keys: S7SDisplayOptions.keys, requiredKeys: ["port"]) { reader in
      S7SDisplayOptions.parse(&reader).map(DisplayDriver.s7s)
    },
    DriverParser(
      name: "serial-frame", keys: SerialFrameDisplayOptions.keys, requiredKeys: ["digits", "port"]
    ) { reader in
      SerialFrameDisplayOptions.parse(&reader).map(DisplayDriver.serialFrame)
    },
    DriverParser(
      name: "serial-text", keys: SerialTextDisplayOptions.keys,
      requiredKeys: ["digits", "port", "template"]
    ) { reader in
      SerialTextDisplayOptions.parse(&reader).map(DisplayDriver.serialText)
    },
    DriverParser(
      name: "tm1637", keys: TM1637DisplayOptions.keys, requiredKeys: ["digits", "clk", "dio"]
    ) { reader in
      TM1637DisplayOptions.parse(&reader).map(DisplayDriver.tm1637)
    },
    DriverParser(
      name: "tm1638", keys: TM1638DisplayOptions.keys,
      requiredKeys: ["digits", "stb", "clk", "dio"]
    ) { reader in
      TM1638DisplayOptions.parse(&reader).map(DisplayDriver.tm1638)
    },
    DriverParser(
      name: "max7219", keys: MAX7219DisplayOptions.keys,
      requiredKeys: ["digits", "din", "clk", "load"]
    ) { reader in
      MAX7219DisplayOptions.parse(&reader).map(DisplayDriver.max7219)
    },
    DriverParser(
      name: "shift-register", keys: ShiftRegisterDisplayOptions.keys,
      requiredKeys: ["digits", "ser", "srclk", "rclk"]
    ) { reader in
      ShiftRegisterDisplayOptions.parse(&reader).map(DisplayDriver.shiftRegister)
    },
    DriverParser(
      name: "ht16k33", keys: HT16K33DisplayOptions.keys, requiredKeys: ["bus", "address"]
    ) { reader in
      HT16K33DisplayOptions.parse(&reader).map(DisplayDriver.ht16k33)
    },
  ]
}
