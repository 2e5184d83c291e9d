import ScoreboardWeb
import Testing

@Suite struct RequestOriginTests {
  let names: Set<String> = ["localhost", "scoreboard", "scoreboard.local"]

  @Test(arguments: [
    "127.0.0.1", "127.0.0.1:8080", "192.168.1.20:80", "[::1]:8080", "[fe80::1]", "localhost",
    "localhost:8080", "Scoreboard.local:8080", "scoreboard.", "scoreboard",
  ])
  func theBoardsOwnHosts(host: String) {
    #expect(RequestOrigin.isBoardHost(host, names: names))
    #expect(RequestOrigin.refusal(host: host, origin: "http://" + host, names: names) == nil)
  }

  @Test(arguments: [
    "evil.example", "127.0.0.1.evil.example", "1.2.3", "1.2.3.4.5", "256.1.1.1",
    "scoreboard.evil", "[::1", "[::1]x", "[]", "localhost:", "localhost:80x", "",
  ])
  func otherHostsAreRefused(host: String) {
    #expect(!RequestOrigin.isBoardHost(host, names: names))
    #expect(RequestOrigin.refusal(host: host, origin: "http://" + host, names: names) != nil)
  }

  @Test func theOriginMustBeTheHost() {
    let host = "192.168.1.20:8080"
    #expect(RequestOrigin.refusal(host: host, origin: "https://" + host, names: names) == nil)
    #expect(
      RequestOrigin.refusal(host: host, origin: nil, names: names)
        == "a change needs the Origin header browsers send (Origin: http://192.168.1.20:8080)")
    #expect(
      RequestOrigin.refusal(host: host, origin: "http://evil.example\u{1}", names: names)
        == "a change from another site (Origin http://evil.example) is refused")
    #expect(RequestOrigin.refusal(host: host, origin: "null", names: names) != nil)
    #expect(
      RequestOrigin.refusal(host: host, origin: "http://192.168.1.20", names: names) != nil,
      "another port is another site")
    #expect(
      RequestOrigin.refusal(host: nil, origin: nil, names: names) == "a change needs a Host header")
  }
}
