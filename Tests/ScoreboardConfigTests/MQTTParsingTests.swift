import ScoreboardConfig
import ScoreboardSettings
import Testing

/// `[mqtt]` read into exact settings, with their defaults.
@Suite struct MQTTParsingTests {
  static func settings(_ lines: String) throws -> MQTTSettings? {
    try Configuration.parse(MalformedConfiguration.base + "[mqtt]\n" + lines, path: "mqtt.conf")
      .mqtt
  }

  @Test func noSectionNoMQTT() throws {
    #expect(try Configuration.parse(MalformedConfiguration.base, path: "a.conf").mqtt == nil)
  }

  @Test func defaults() throws {
    let settings = try #require(
      try Self.settings("broker = mqtt://broker.local\ntopic = scoreboardd/court-1\n"))
    #expect(
      settings
        == MQTTSettings(
          transport: .plain, host: "broker.local", port: 1883, clientID: "scoreboardd-court-1",
          baseTopic: "scoreboardd/court-1", keepAliveSeconds: 30, qos: 1,
          discoveryPrefix: "homeassistant", deviceName: "scoreboardd/court-1"))
    #expect(settings.brokerURL == "mqtt://broker.local:1883")
  }

  @Test func everyKey() throws {
    let settings = try #require(
      try Self.settings(
        """
        broker = mqtts://[fd00::5]:8884
        topic = hall/board-2
        client-id = board_2
        username = board
        password-file = /etc/scoreboardd/mqtt-password
        ca-file = /etc/scoreboardd/venue-ca.crt
        keep-alive = 1min
        qos = 2
        discovery-prefix = ha
        device-name = Court 2
        mirror = hall/board-1
        when-stale = dashes
        forward-keys = yes
        """))
    #expect(
      settings
        == MQTTSettings(
          transport: .tls, host: "fd00::5", port: 8884, clientID: "board_2",
          baseTopic: "hall/board-2", username: "board",
          passwordFile: "/etc/scoreboardd/mqtt-password",
          caFile: "/etc/scoreboardd/venue-ca.crt", keepAliveSeconds: 60, qos: 2,
          discoveryPrefix: "ha", deviceName: "Court 2",
          mirror: MQTTSettings.Mirror(
            source: "hall/board-1", whenStale: .dashes, forwardsKeys: true)))
    #expect(settings.brokerURL == "mqtts://[fd00::5]:8884")
  }

  @Test func mqttsDefaultsToPort8883AndHomeAssistantCanBeOff() throws {
    let settings = try #require(
      try Self.settings("broker = mqtts://10.0.0.2\ntopic = a/b\nhome-assistant = no\n"))
    #expect(settings.port == 8883)
    #expect(settings.discoveryPrefix == nil)
  }
}
