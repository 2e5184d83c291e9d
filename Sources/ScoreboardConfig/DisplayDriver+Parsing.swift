extension DisplayDriver {
  /// Every display driver the configuration knows, each reading its own keys.
  static let parsers: [DriverParser<DisplayDriver>] = [
    DriverParser(name: "terminal", keys: ["footer"]) { reader in
      .terminal(TerminalDisplayOptions(footer: reader.text("footer", expected: "a footer text")))
    }
  ]
}
