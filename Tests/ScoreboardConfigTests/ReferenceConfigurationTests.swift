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
    #expect(configuration.keypads.map(\.name) == ["console"])
    #expect(configuration.keypads.first?.driver == .terminal(TerminalKeypadOptions(device: nil)))
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
