import ScoreboardCore
import TestExpectations
import Testing

/// The words of the MQTT link in the status line and its JSON: after the horns, only on
/// a board that has `[mqtt]`, and `mirror=` only on a mirror.
@Suite struct ControlStatusMQTTTests {
  static func example(_ link: ControlStatus.MQTTLink?) -> ControlStatus {
    var status = ControlStatusTests.example
    status.horns = [.init(name: "main", isOn: false)]
    status.mqtt = link
    return status
  }

  @Test(arguments: [
    (ControlStatus.MQTTLink?.none, ""),
    (ControlStatus.MQTTLink(isConnected: true), " mqtt=connected"),
    (ControlStatus.MQTTLink(isConnected: false), " mqtt=disconnected"),
    (ControlStatus.MQTTLink(isConnected: true, isStale: false), " mqtt=connected mirror=live"),
    (
      ControlStatus.MQTTLink(isConnected: false, isStale: true),
      " mqtt=disconnected mirror=stale"
    ),
  ])
  func wordsRoundTrip(link: ControlStatus.MQTTLink?, words: String) throws {
    let status = Self.example(link)
    #expect(status.line().hasSuffix("state-file=saved horns=main:off" + words))
    #expect(try ControlStatus(parsing: status.line()) == status)
  }

  @Test func jsonHasTheLink() {
    let json = Self.example(ControlStatus.MQTTLink(isConnected: true, isStale: true)).json()
    #expect(json.hasSuffix(#","mqtt":{"connected":true,"stale":true}}"#))
    let plain = Self.example(ControlStatus.MQTTLink(isConnected: false)).json()
    #expect(plain.hasSuffix(#","mqtt":{"connected":false}}"#))
  }

  @Test func aWrongWordIsNamed() {
    let line = Self.example(nil).line() + " mqtt=maybe"
    let error = expectError(ControlSyntaxError.self) { try ControlStatus(parsing: line) }
    #expect(
      error?.description == "expected mqtt=connected or mqtt=disconnected, found 'mqtt=maybe'")
  }
}
