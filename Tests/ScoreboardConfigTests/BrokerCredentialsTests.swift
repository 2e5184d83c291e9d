import ScoreboardConfig
import ScoreboardSettings
import TestExpectations
import Testing

/// A password written into the broker's URL never reaches a message: the configuration
/// refuses it (the password belongs in `password-file`) without repeating it, whatever
/// else is wrong with the URL, and a URL quoted anywhere in a message is masked.
@Suite struct BrokerCredentialsTests {
  static let secret = "hunter2"

  /// The diagnostics of `base` with `lines` after it (from line 7).
  static func diagnostics(_ lines: String) -> String? {
    expectError(ConfigurationError.self) {
      try Configuration.parse(MalformedConfiguration.base + lines, path: "demo.conf")
    }?.description
  }

  @Test(arguments: [
    "mqtt://court-1:hunter2@broker.local",
    "mqtt://court-1:hunter2@broker.local:1883",
    "mqtt://court-1:hunter2@broker.local:99999",
    "mqtts://court-1:hunter2@[fd00::5]:8883",
    "mqtts://court-1:hunter2@[fd00::5",
    "mqtt://court-1:hunter2@broker.local/",
    "MQTT://court-1:hunter2@broker.local:0",
    "http://court-1:hunter2@broker.local",
    "mqtt://hunter2@broker.local",
    "mqtt://court-1:hunter2@with-an-at@broker.local",
    "mqtt://court-1:hunter2/with/slashes@broker.local",
    "mqtt://court-1:with:colons:hunter2@broker.local",
    "mqtt://court-1:hunter2 with spaces@broker.local",
    "mqtt://hunter2:@broker.local",
    "//court-1:hunter2@broker.local",
    "court-1:hunter2@broker.local:1883",
    "court-1:hunter2@",
  ])
  func aPasswordInTheBrokerURLIsRefusedWithoutBeingShown(broker: String) throws {
    let text = try #require(
      Self.diagnostics("[mqtt]\nbroker = \(broker)\ntopic = scoreboardd/court-1\n"))
    #expect(!text.contains(Self.secret), "\(text)")
    #expect(text.hasPrefix("demo.conf:8: [mqtt] broker: "), "\(text)")
    #expect(
      text.contains("give them as username = NAME and password-file = FILE"), "\(text)")
  }

  @Test func theUserNameStaysToTellWhichURLItIs() throws {
    let text = try #require(
      Self.diagnostics(
        "[mqtt]\nbroker = mqtts://court-1:hunter2@[fd00::5]:8884\ntopic = a/b\n"))
    #expect(text.contains("found \"mqtts://court-1:***@[fd00::5]:8884\""), "\(text)")
  }

  @Test(arguments: [
    "[mqtt]\nbroker = mqtt://broker.local\ntopic = a/b\nmirror = mqtt://u:hunter2@host/x\n",
    "[mqtt]\nbroker = mqtt://broker.local\ntopic = mqtts://u:hunter2@host\n",
    "[mqtt]\nbroker = mqtt://broker.local\ntopic = a/b\ndiscovery-prefix = mqtt://hunter2@h\n",
    "[mqtt://u:hunter2@broker.local\nbroker = mqtt://broker.local\n",
    "[mqtt://u:hunter2@broker.local]\nbroker = mqtt://broker.local\n",
    "[field mqtt://u:hunter2@host]\nposition = 3\n",
  ])
  func aURLWithAPasswordQuotedElsewhereIsMasked(lines: String) throws {
    let text = try #require(Self.diagnostics(lines))
    #expect(!text.contains(Self.secret), "\(text)")
    #expect(text.contains("***@"), "\(text)")
  }

  @Test func aBrokerURLWithoutUserInformationIsQuotedAsItIs() throws {
    let text = try #require(
      Self.diagnostics("[mqtt]\nbroker = mqtt://broker.local:99999\ntopic = a/b\n"))
    #expect(
      text
        == "demo.conf:8: [mqtt] broker: expected a port from 1 to 65535, found \"99999\"")
  }

  @Test(arguments: [
    ("court-1:hunter2@broker.local", "mqtt://***@broker.local:1883"),
    ("hunter2@fd00::5", "mqtt://***@[fd00::5]:1883"),
    ("broker.local", "mqtt://broker.local:1883"),
  ])
  func theBrokerURLOfTheLogNeverShowsUserInformation(host: String, shown: String) {
    let settings = MQTTSettings(host: host, clientID: "court-1", baseTopic: "a/b")
    #expect(settings.brokerURL == shown)
  }
}
