import ScoreboardConfig
import ScoreboardCore
import Testing

@Suite struct ReferenceConfigurationTests {
  /// `Config/scoreboardd.conf`, parsed.
  static func parseReference() throws -> Configuration {
    try Configuration.parse(
      try PackageFile.contents(of: "Config/scoreboardd.conf"), path: "scoreboardd.conf")
  }

  @Test func parses() throws {
    let configuration = try Self.parseReference()

    #expect(configuration.scoreboard.fields.map(\.name) == ["home", "period", "away"])
    #expect(configuration.displays.map(\.name) == ["main"])
    #expect(configuration.keypads.map(\.name) == ["console", "numpad"])
    // The numpad sets every evdev key to its default.
    #expect(
      configuration.keypads.map(\.driver) == [
        .terminal(TerminalKeypadOptions(device: nil)),
        .evdev(
          EvdevKeypadOptions(
            selector: .path("/dev/input/by-id/usb-SIGMACHIP_USB_Keyboard-event-kbd"))),
      ])
  }

  /// The numpad keymap the reference ships for a standard numeric keypad.
  @Test func shipsANumpadKeymap() throws {
    let configuration = try Self.parseReference()

    var bindings: [Key: Action] = [:]
    for digit in 0...9 {
      bindings[Key("KEY_KP\(digit)")!] = .digit(digit)
    }
    bindings[Key("KEY_KPENTER")!] = .commit
    bindings[Key("KEY_KPDOT")!] = .cancel
    bindings[Key("KEY_KPASTERISK")!] = .next
    bindings[Key("KEY_KPSLASH")!] = .previous
    bindings[Key("KEY_KPPLUS")!] = .add(field: nil, amount: 1)
    bindings[Key("KEY_KPMINUS")!] = .add(field: nil, amount: -1)
    bindings[Key("KEY_BACKSPACE")!] = .backspace
    bindings[Key("KEY_ESC")!] = .cancel
    bindings[Key("KEY_TAB")!] = .next
    #expect(
      configuration.keymaps["numpad"]
        == Keymap(name: "numpad", bindings: bindings, repeating: Keymap.defaultRepeating))
    #expect(configuration.keypads.last?.keymap.name == "numpad")
  }

  /// The reference file sets every `[scoreboard]` key, and `on-stop`, to its default.
  @Test func documentsTheDefaults() throws {
    let configuration = try Self.parseReference()

    let defaults = ScoreboardSpec(
      fields: configuration.scoreboard.fields, displays: configuration.scoreboard.displays)
    #expect(configuration.scoreboard == defaults)
    #expect(configuration.service == ServiceSettings())
    #expect(configuration.displays.map(\.onStop) == [.keep])
  }
}

@Suite struct ServiceSettingsTests {
  @Test func noneTurnsTheStateFileAndTheControlSocketOff() throws {
    let configuration = try Configuration.parse(
      MalformedConfiguration.base
        + "[scoreboard]\nstate-file = none\ncontrol-socket = None\ncontrol-clients = 2\n",
      path: "demo.conf")
    #expect(
      configuration.service
        == ServiceSettings(stateFile: nil, controlSocket: nil, maximumControlClients: 2))
  }
}
