import Glibc
import ScoreboardConfig
import ScoreboardCore
import Testing

@Suite struct ReferenceConfigurationTests {
  /// `Config/scoreboardd.conf` of this package, found from this source file's path.
  static let path: String = {
    var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)  // Tests/ScoreboardConfigTests/ThisFile.swift
    return (components + ["Config", "scoreboardd.conf"]).joined(separator: "/")
  }()

  /// The whole text of the file at `path`.
  static func contents(of path: String) throws -> String {
    let file = try #require(fopen(path, "r"), "cannot open \(path)")
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func parses() throws {
    let configuration = try Configuration.parse(
      try Self.contents(of: Self.path), path: "scoreboardd.conf")

    #expect(configuration.scoreboard.fields.map(\.name) == ["home", "period", "away"])
    #expect(configuration.displays.map(\.name) == ["main"])
    #expect(configuration.keypads.map(\.name) == ["console"])
    #expect(configuration.keypads.first?.driver == .terminal(TerminalKeypadOptions(device: nil)))
  }

  /// The reference file sets every `[scoreboard]` key to its default.
  @Test func documentsTheDefaults() throws {
    let configuration = try Configuration.parse(
      try Self.contents(of: Self.path), path: "scoreboardd.conf")

    let defaults = ScoreboardSpec(
      fields: configuration.scoreboard.fields, displays: configuration.scoreboard.displays)
    #expect(configuration.scoreboard == defaults)
    #expect(configuration.logLevel == .info)
  }
}
