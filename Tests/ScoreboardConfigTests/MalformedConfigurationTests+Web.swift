import ScoreboardConfig
import Testing

extension MalformedConfigurationTests {
  /// `base` then `[web]` (line 7) with `lines` from line 8.
  static func web(_ lines: String) -> String {
    "[web]\n" + lines
  }

  static let webCases: [MalformedConfiguration] = [
    .afterBase(
      "listen on a name", web("listen = localhost:8080"),
      "demo.conf:8: [web] listen: \"localhost\" is not an IPv4 address (a name is not taken); expected ADDRESS:PORT such as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080"
    ),
    .afterBase(
      "listen without a port", web("listen = 0.0.0.0"),
      "demo.conf:8: [web] listen: expected ADDRESS:PORT such as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080, found \"0.0.0.0\""
    ),
    .afterBase(
      "listen on port 0", web("listen = 0.0.0.0:0"),
      "demo.conf:8: [web] listen: port \"0\": expected 1 to 65535"),
    .afterBase(
      "listen on an IPv6 address without brackets", web("listen = ::1:8080"),
      "demo.conf:8: [web] listen: expected ADDRESS:PORT such as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080, found \"::1:8080\""
    ),
    .afterBase(
      "listen on a bad IPv6 address", web("listen = [::g]:8080"),
      "demo.conf:8: [web] listen: \"::g\" is not an IPv6 address; expected ADDRESS:PORT such as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080"
    ),
    .afterBase(
      "an unknown board-page", web("board-page = everyone"),
      "demo.conf:8: [web] board-page: expected public or operators, found \"everyone\""),
    .afterBase(
      "more per address than in all", web("connections = 10\nconnections-per-address = 20"),
      "demo.conf:9: [web] connections-per-address: is more than connections (10)"),
  ]

  @Test(arguments: [
    ("listen = 0.0.0.0:80", "0.0.0.0", 80), ("listen = [::]:8080", "::", 8080),
    ("listen = [::1]:9000", "::1", 9000), ("name = Court 1", "127.0.0.1", 8080),
  ])
  func webSettingsAreRead(line: String, address: String, port: Int) throws {
    let configuration = try Configuration.parse(
      MalformedConfiguration.base + Self.web(line), path: "demo.conf")
    let web = try #require(configuration.web)
    #expect(web.address == address)
    #expect(web.port == port)
  }

  @Test func aRelativePagesFolderIsTheConfigurationFilesNeighbour() throws {
    let configuration = try Configuration.parse(
      MalformedConfiguration.base + Self.web("pages = ../web"), path: "/srv/board/Config/demo.conf")
    #expect(configuration.web?.pages == "/srv/board/Config/../web")
  }
}
