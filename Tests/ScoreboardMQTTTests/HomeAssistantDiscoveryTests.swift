import ScoreboardCore
import ScoreboardMQTT
import Testing

@Suite struct HomeAssistantDiscoveryTests {
  static func discovery(
    _ spec: ScoreboardSpec = MQTTFixtures.spec(), clientID: String = "court-1.board"
  ) -> HomeAssistantDiscovery {
    HomeAssistantDiscovery(
      spec: spec, clientID: clientID, deviceName: "Court 1",
      topics: Topics(base: "scoreboardd/court-1"), qos: 1)
  }

  static func components(_ payload: String) throws -> [JSONValue.Member] {
    let document = try JSONValue.parse(payload)
    return try #require(document["cmps"]?.members)
  }

  @Test func theTopicNamesTheNode() {
    let discovery = Self.discovery()
    #expect(discovery.nodeID == "court-1_board")
    #expect(discovery.topic == "homeassistant/device/court-1_board/config")
    let elsewhere = HomeAssistantDiscovery(
      spec: MQTTFixtures.spec(), clientID: "a b/c+#é", deviceName: "x", topics: Topics(base: "b"),
      qos: 0, prefix: "ha")
    #expect(elsewhere.topic == "ha/device/a_b_c___/config")
  }

  @Test func theDeviceOriginAndSharedOptions() throws {
    let payload = try JSONValue.parse(Self.discovery().payload())
    #expect(payload["dev"]?["ids"] == .array([.string("court-1_board")]))
    #expect(payload["dev"]?["name"]?.stringValue == "Court 1")
    #expect(payload["dev"]?["mf"]?.stringValue == "scoreboardd")
    #expect(payload["dev"]?["mdl"]?.stringValue == "scoreboardd")
    #expect(payload["dev"]?["sw"]?.stringValue == ProductVersion.text)
    #expect(payload["o"]?["name"]?.stringValue == "scoreboardd")
    #expect(payload["o"]?["sw"]?.stringValue == ProductVersion.text)
    #expect(payload["avty_t"]?.stringValue == "scoreboardd/court-1/status")
    #expect(payload["pl_avail"]?.stringValue == "online")
    #expect(payload["pl_not_avail"]?.stringValue == "offline")
    #expect(payload["stat_t"]?.stringValue == "scoreboardd/court-1/state")
    #expect(payload["cmd_t"]?.stringValue == "scoreboardd/court-1/command")
    #expect(payload["qos"]?.intValue == 1)
  }

  @Test func everyFieldClockUndoAndHornIsAComponent() throws {
    let components = try Self.components(Self.discovery().payload())
    #expect(
      components.map(\.key) == [
        "court-1_board_home", "court-1_board_away", "court-1_board_period", "court-1_board_game",
        "court-1_board_game_start", "court-1_board_game_stop", "court-1_board_shot",
        "court-1_board_shot_start", "court-1_board_shot_stop", "court-1_board_undo",
        "court-1_board_horn_main", "court-1_board_horn_buzzer",
      ])
    #expect(
      Self.discovery().componentKeys
        == Dictionary(
          uniqueKeysWithValues: components.map { ($0.key, $0.value["p"]?.stringValue ?? "") }))
  }

  /// What Home Assistant requires of each component.
  @Test func everyComponentIsValid() throws {
    let components = try Self.components(Self.discovery().payload())
    var uniqueIDs: Set<String> = []
    for component in components {
      let value = component.value
      let platform = try #require(value["p"]?.stringValue)
      #expect(["number", "select", "sensor", "button"].contains(platform))
      let uniqueID = try #require(value["unique_id"]?.stringValue)
      #expect(uniqueID == component.key)
      #expect(!uniqueID.isEmpty)
      #expect(
        uniqueID.unicodeScalars.allSatisfy {
          ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            || $0 == "_" || $0 == "-"
        })
      #expect(uniqueIDs.insert(uniqueID).inserted)
      #expect(value["name"]?.stringValue?.isEmpty == false)
      #expect(value["qos"]?.intValue == 1)
      switch platform {
      case "number":
        let minimum = try #require(value["min"]?.intValue)
        let maximum = try #require(value["max"]?.intValue)
        #expect(minimum <= maximum)
        #expect(value["step"]?.intValue == 1)
        #expect(value["mode"]?.stringValue == "box")
        #expect(value["cmd_tpl"]?.stringValue != nil)
        #expect(value["val_tpl"]?.stringValue != nil)
      case "select":
        #expect(value["options"]?.elements?.isEmpty == false)
        #expect(value["cmd_tpl"]?.stringValue != nil)
      case "sensor":
        #expect(value["val_tpl"]?.stringValue != nil)
      default:
        let press = try #require(value["pl_prs"]?.stringValue)
        let request = try ControlRequest(parsing: press)
        #expect(request.description == press)
      }
    }
  }

  @Test func numbersHaveTheFieldsLimits() throws {
    let components = try Self.components(Self.discovery().payload())
    let home = try #require(components.first { $0.key == "court-1_board_home" }?.value)
    #expect(home["p"]?.stringValue == "number")
    #expect(home["name"]?.stringValue == "home")
    #expect(home["min"]?.intValue == 0)
    #expect(home["max"]?.intValue == 199)
    #expect(home["val_tpl"]?.stringValue == "{{ value_json.fields.home.value }}")
    #expect(home["cmd_tpl"]?.stringValue == "set home {{ value | int }}")
    let away = try #require(components.first { $0.key == "court-1_board_away" }?.value)
    #expect(away["max"]?.intValue == 999)
  }

  @Test func listsAreSelectsOfTheirOptions() throws {
    let components = try Self.components(Self.discovery().payload())
    let period = try #require(components.first { $0.key == "court-1_board_period" }?.value)
    #expect(period["p"]?.stringValue == "select")
    #expect(period["options"] == .array(["1", "2", "3", "4", "OT"].map(JSONValue.string)))
    #expect(period["val_tpl"]?.stringValue == "{{ value_json.fields.period.value }}")
    #expect(period["cmd_tpl"]?.stringValue == "set period {{ value }}")
  }

  @Test func clocksAreSensorsWithStartAndStopButtons() throws {
    let components = try Self.components(Self.discovery().payload())
    func component(_ key: String) -> JSONValue? {
      components.first { $0.key == "court-1_board_" + key }?.value
    }
    #expect(component("game")?["p"]?.stringValue == "sensor")
    #expect(component("game")?["val_tpl"]?.stringValue == "{{ value_json.fields.game.shown }}")
    #expect(component("game_start")?["pl_prs"]?.stringValue == "start game")
    #expect(component("game_stop")?["pl_prs"]?.stringValue == "stop game")
    #expect(component("shot_stop")?["pl_prs"]?.stringValue == "stop shot")
    #expect(component("undo")?["pl_prs"]?.stringValue == "undo")
    #expect(component("horn_buzzer")?["pl_prs"]?.stringValue == "horn buzzer")
    let start = try ControlRequest(parsing: "start game")
    #expect(start == .clock(.start(clock: "game")))
  }

  @Test func namesThatAreNotIdentifiersAreQuotedInTemplates() throws {
    let spec = MQTTFixtures.spec([MQTTFixtures.number("home-score", position: 0)], horns: [])
    let components = try Self.components(Self.discovery(spec).payload())
    let home = try #require(components.first?.value)
    #expect(components.first?.key == "court-1_board_home-score")
    #expect(home["val_tpl"]?.stringValue == "{{ value_json.fields['home-score'].value }}")
  }

  @Test func keysThatMeetAreMadeUnique() throws {
    let spec = MQTTFixtures.spec(
      [MQTTFixtures.number("undo", position: 0), MQTTFixtures.number("horn_main", position: 3)])
    let keys = try Self.components(Self.discovery(spec).payload()).map(\.key)
    #expect(
      keys == [
        "court-1_board_undo", "court-1_board_horn_main", "court-1_board_undo_2",
        "court-1_board_horn_main_2", "court-1_board_horn_buzzer",
      ])
    #expect(Set(keys).count == keys.count)
  }

  @Test func textsAreEscaped() throws {
    let discovery = HomeAssistantDiscovery(
      spec: MQTTFixtures.spec(), clientID: "c", deviceName: "Court \"1\"\n\\",
      topics: Topics(base: "a\"b"), qos: 2)
    let payload = try JSONValue.parse(discovery.payload())
    #expect(payload["dev"]?["name"]?.stringValue == "Court \"1\"\n\\")
    #expect(payload["stat_t"]?.stringValue == "a\"b/state")
  }

  /// A board that lost its away score and its horns since the last start deletes those
  /// components, and reads back without them.
  @Test func removedComponentsAreDeleted() throws {
    let before = Self.discovery()
    let retained = before.payload()
    let previous = try #require(HomeAssistantDiscovery.components(inPayload: retained))
    #expect(previous == before.componentKeys)
    let spec = MQTTFixtures.spec(
      [
        MQTTFixtures.number("home", position: 0, maximum: 199), MQTTFixtures.period,
        MQTTFixtures.game(), MQTTFixtures.shot,
      ], horns: [])
    let after = Self.discovery(spec)
    let removals = after.removals(since: previous)
    #expect(
      removals.map(\.key) == [
        "court-1_board_away", "court-1_board_horn_buzzer", "court-1_board_horn_main",
      ])
    #expect(removals.map(\.platform) == ["number", "button", "button"])
    let payload = after.payload(removing: removals)
    let components = try Self.components(payload)
    for removal in removals {
      #expect(
        components.first { $0.key == removal.key }?.value
          == .object([.init("p", .string(removal.platform))]))
    }
    let readBack = try #require(HomeAssistantDiscovery.components(inPayload: payload))
    #expect(readBack == after.componentKeys)
    #expect(after.removals(since: readBack).isEmpty)
    // A component that is still there is never sent as removed.
    let kept = after.payload(removing: [(key: "court-1_board_home", platform: "number")])
    #expect(kept == after.payload())
  }

  @Test(
    arguments: [
      "", "[", "[]", "{}", #"{"cmps":5}"#, #"{"cmps":{"a":5}}"#, #"{"cmps":{"a":{"name":"x"}}}"#,
    ] as [String])
  func aPayloadThatIsNotADeviceReadsAsNothing(payload: String) {
    #expect(HomeAssistantDiscovery.components(inPayload: payload) == nil)
  }

  @Test func componentsAreReadInTheirLongForm() {
    let payload =
      #"{"components":{"a":{"platform":"sensor","name":"x"},"b":{"platform":"button"}}}"#
    #expect(HomeAssistantDiscovery.components(inPayload: payload) == ["a": "sensor"])
  }
}
