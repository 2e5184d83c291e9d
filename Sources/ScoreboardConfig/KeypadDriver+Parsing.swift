extension KeypadDriver {
  /// Every keypad driver the configuration knows, each reading its own keys.
  static let parsers: [DriverParser<KeypadDriver>] = [
    DriverParser(name: "terminal", keys: ["device"]) { reader in
      .terminal(TerminalKeypadOptions(device: reader.path("device")))
    }
  ]
}
