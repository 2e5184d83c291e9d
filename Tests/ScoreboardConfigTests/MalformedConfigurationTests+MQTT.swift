import ScoreboardConfig
import Testing

extension MalformedConfigurationTests {
  /// `base` then `[mqtt]` (line 7) with `broker` at line 8 and `topic` at line 9, then
  /// `more` from line 10.
  static func mqtt(
    broker: String = "mqtt://broker.local", topic: String = "scoreboardd/court-1",
    _ more: String = ""
  ) -> String {
    "[mqtt]\nbroker = \(broker)\ntopic = \(topic)\n" + more
  }

  static let mqttCases: [MalformedConfiguration] = [
    .afterBase(
      "broker without a scheme", mqtt(broker: "broker.local"),
      "demo.conf:8: [mqtt] broker: expected a broker URL such as mqtt://broker.local or mqtts://broker.local:8883, found \"broker.local\""
    ),
    .afterBase(
      "broker with an unknown scheme", mqtt(broker: "http://broker.local"),
      "demo.conf:8: [mqtt] broker: expected mqtt:// or mqtts://, found 'http://'"),
    .afterBase(
      "broker port out of range", mqtt(broker: "mqtt://broker.local:70000"),
      "demo.conf:8: [mqtt] broker: expected a port from 1 to 65535, found \"70000\""),
    .afterBase(
      "broker with a user and password", mqtt(broker: "mqtt://court-1:hunter2@broker.local"),
      "demo.conf:8: [mqtt] broker: expected no user name or password in the URL, found \"mqtt://court-1:***@broker.local\"; give them as username = NAME and password-file = FILE (readable by scoreboardd's user alone)"
    ),
    .afterBase(
      "broker without a host", mqtt(broker: "mqtt://:1883"),
      "demo.conf:8: [mqtt] broker: expected a host name or address after 'mqtt://', such as mqtt://broker.local or mqtts://broker.local:8883, found \"mqtt://:1883\""
    ),
    .afterBase(
      "topic with a wildcard", mqtt(topic: "scoreboardd/#"),
      "demo.conf:9: [mqtt] topic: expected a topic without the wildcards + and #, found \"scoreboardd/#\""
    ),
    .afterBase(
      "topic with an empty level", mqtt(topic: "scoreboardd//court"),
      "demo.conf:9: [mqtt] topic: expected topic levels separated by single '/', with no empty level, such as scoreboardd/court-1, found \"scoreboardd//court\""
    ),
    .afterBase(
      "topic missing", "[mqtt]\nbroker = mqtt://broker.local\n",
      "demo.conf:7: [mqtt]: missing required key 'topic'"),
    .afterBase(
      "client id with a space", mqtt("client-id = court 1\n"),
      "demo.conf:10: [mqtt] client-id: expected 1 to 64 letters, digits, '-' or '_', found \"court 1\""
    ),
    .afterBase(
      "password inline", mqtt("password = s3cret\n"),
      "demo.conf:10: [mqtt] password: unknown key 'password'; expected 'broker', 'client-id', 'topic', 'username', 'password-file', 'ca-file', 'keep-alive', 'qos', 'home-assistant', 'discovery-prefix', 'device-name', 'mirror', 'when-stale' or 'forward-keys'"
    ),
    .afterBase(
      "password file without a user name", mqtt("password-file = /etc/scoreboardd/pw\n"),
      "demo.conf:10: [mqtt] password-file: needs a username as well"),
    .afterBase(
      "relative password file", mqtt("username = board\npassword-file = pw\n"),
      "demo.conf:11: [mqtt] password-file: expected an absolute path such as /etc/scoreboardd/mqtt-password, found \"pw\""
    ),
    .afterBase(
      "CA file without TLS", mqtt("ca-file = /etc/scoreboardd/ca.crt\n"),
      "demo.conf:10: [mqtt] ca-file: applies only to an mqtts:// broker (TLS)"),
    .afterBase(
      "keep-alive too short", mqtt("keep-alive = 1s\n"),
      "demo.conf:10: [mqtt] keep-alive: expected a duration from 5s to 60min, found \"1s\""),
    .afterBase(
      "qos 3", mqtt("qos = 3\n"),
      "demo.conf:10: [mqtt] qos: expected a quality of service: 0, 1 or 2, found \"3\""),
    .afterBase(
      "mirror of itself", mqtt("mirror = scoreboardd/court-1\n"),
      "demo.conf:10: [mqtt] mirror: is this board's own topic; a mirror follows another board's topic"
    ),
    .afterBase(
      "when-stale without mirror", mqtt("when-stale = blank\n"),
      "demo.conf:10: [mqtt] when-stale: applies only to a mirror (mirror = TOPIC of the board it follows)"
    ),
    .afterBase(
      "when-stale unknown", mqtt("mirror = a/b\nwhen-stale = zeros\n"),
      "demo.conf:11: [mqtt] when-stale: expected keep, blank or dashes, found \"zeros\""),
    .afterBase(
      "discovery prefix with discovery off",
      mqtt("home-assistant = no\ndiscovery-prefix = ha\n"),
      "demo.conf:11: [mqtt] discovery-prefix: applies only with home-assistant = yes"),
    .afterBase(
      "mqtt with a name", "[mqtt court]\nbroker = mqtt://a\ntopic = a/b\n",
      "demo.conf:7: [mqtt court]: expected no name after 'mqtt', found \"court\""),
  ]
}
