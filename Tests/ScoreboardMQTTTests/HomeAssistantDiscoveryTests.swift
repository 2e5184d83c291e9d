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

  @Test func everyFieldClockUndoHornBrightnessAndBlankingIsAComponent() throws {
    let components = try Self.components(Self.discovery().payload())
    let clock = ["", "_start", "_stop", "_set", "_plus_1", "_minus_1"]
    var expected = ["home", "away", "period"]
    expected += clock.map { "game" + $0 }
    expected.append("game_reset")
    expected += clock.map { "shot" + $0 }
    expected += ["shot_reset_24", "undo", "horn_main", "horn_buzzer", "brightness", "blank"]
    #expect(components.map(\.key) == expected.map { "court-1_board_" + $0 })
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
      #expect(["number", "select", "sensor", "button", "text", "switch"].contains(platform))
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
        #expect(value["mode"]?.stringValue == "box" || value["mode"]?.stringValue == "slider")
        #expect(value["cmd_tpl"]?.stringValue != nil)
        #expect(value["val_tpl"]?.stringValue != nil)
      case "select":
        #expect(value["options"]?.elements?.isEmpty == false)
        #expect(value["cmd_tpl"]?.stringValue != nil)
      case "sensor":
        #expect(value["val_tpl"]?.stringValue != nil)
      case "text":
        let minimum = try #require(value["min"]?.intValue)
        let maximum = try #require(value["max"]?.intValue)
        #expect(0 <= minimum && minimum <= maximum && maximum <= 255)
        #expect(value["ptrn"]?.stringValue != nil)
        #expect(value["cmd_tpl"]?.stringValue != nil)
        #expect(value["val_tpl"]?.stringValue != nil)
      case "switch":
        for payload in ["pl_on", "pl_off"] {
          let line = try #require(value[payload]?.stringValue)
          #expect(try ControlRequest(parsing: line).description == line)
        }
        #expect(value["stat_on"]?.stringValue != nil)
        #expect(value["stat_off"]?.stringValue != nil)
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
    #expect(home["name"]?.stringValue == "HOME")
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
    #expect(component("game")?["name"]?.stringValue == "GAME")
    #expect(component("game")?["val_tpl"]?.stringValue == "{{ value_json.fields.game.shown }}")
    #expect(component("game_start")?["pl_prs"]?.stringValue == "start game")
    #expect(component("game_start")?["name"]?.stringValue == "GAME start")
    #expect(component("game_stop")?["pl_prs"]?.stringValue == "stop game")
    #expect(component("shot_stop")?["pl_prs"]?.stringValue == "stop shot")
    #expect(component("undo")?["pl_prs"]?.stringValue == "undo")
    #expect(component("horn_buzzer")?["pl_prs"]?.stringValue == "horn buzzer")
    let start = try ControlRequest(parsing: "start game")
    #expect(start == .clock(.start(clock: "game")))
  }

  /// A clock is set by a text of its time, moved by a second either way, and reset to
  /// each of its reset values (its first when it has none) by buttons.
  @Test func clocksAreSetAdjustedAndResetFromHomeAssistant() throws {
    let shot = FieldSpec(
      name: "shot", label: "SHOT", display: "main", position: 12, width: 3,
      kind: .clock(
        ClockFormat(
          role: .shot, length: .seconds(30),
          resets: [.seconds(24), .seconds(14), .milliseconds(14_500), .seconds(24)])),
      defaultValue: 0)
    let spec = MQTTFixtures.spec([MQTTFixtures.game(), shot], horns: [])
    let components = try Self.components(Self.discovery(spec).payload())
    func component(_ key: String) throws -> JSONValue {
      try #require(components.first { $0.key == "court-1_board_" + key }?.value, "\(key)")
    }
    let set = try component("game_set")
    #expect(set["p"]?.stringValue == "text")
    #expect(set["name"]?.stringValue == "GAME set")
    #expect(set["cmd_tpl"]?.stringValue == "set game {{ value }}")
    #expect(set["val_tpl"]?.stringValue == "{{ value_json.fields.game.shown }}")
    #expect(set["min"]?.intValue == 1)
    #expect(set["max"]?.intValue == 7)
    #expect(try component("game_plus_1")["pl_prs"]?.stringValue == "adjust game +1")
    #expect(try component("game_plus_1")["name"]?.stringValue == "GAME plus 1 s")
    #expect(try component("game_minus_1")["pl_prs"]?.stringValue == "adjust game -1")
    #expect(try component("game_minus_1")["name"]?.stringValue == "GAME minus 1 s")
    #expect(try component("game_reset")["pl_prs"]?.stringValue == "reset-clock game")
    #expect(try component("shot_reset_24")["pl_prs"]?.stringValue == "reset-clock shot 24.0")
    #expect(try component("shot_reset_24")["name"]?.stringValue == "SHOT reset 24")
    #expect(try component("shot_reset_14")["pl_prs"]?.stringValue == "reset-clock shot 14.0")
    #expect(try component("shot_reset_14_5")["pl_prs"]?.stringValue == "reset-clock shot 14.5")
    #expect(try component("shot_reset_14_5")["name"]?.stringValue == "SHOT reset 14.5")
    // A value given twice is one button; a clock with reset values has no plain reset.
    #expect(components.filter { $0.key.contains("_reset") }.count == 4)
    #expect(!components.contains { $0.key == "court-1_board_shot_reset" })
    for key in ["game_plus_1", "game_minus_1", "game_reset", "shot_reset_24"] {
      let press = try #require(try component(key)["pl_prs"]?.stringValue)
      guard case .clock = try ControlRequest(parsing: press) else {
        Issue.record("\(press) is not a clock request")
        continue
      }
    }
  }

  /// The text's pattern lets through what the control protocol reads as a time, and
  /// nothing else (Home Assistant refuses a value that does not match before sending it).
  @Test(
    arguments: [
      ("10:00", true), ("0:52.4", true), ("24", true), ("4.9", true), ("99:59.9", true),
      ("5999", true), ("1:5", false), ("1:60", false), ("12:00.", false), ("4.95", false),
      ("", false), ("-1", false), ("10:00 ", false), ("abc", false), ("100:00", false),
    ])
  func theClockPatternMatchesTheControlProtocolsTimes(text: String, matches: Bool) {
    #expect(Self.matchesClockPattern(text) == matches)
    #expect((ClockText.parse(text) != nil) == matches)
  }

  /// `^([0-9]{1,2}:[0-5][0-9]|[0-9]{1,4})(\.[0-9])?$` by hand: the test target has no
  /// regular expressions of its own to run the pattern with.
  static func matchesClockPattern(_ text: String) -> Bool {
    #expect(
      HomeAssistantDiscovery.clockTimePattern == #"^([0-9]{1,2}:[0-5][0-9]|[0-9]{1,4})(\.[0-9])?$"#)
    var characters = Array(text)
    if characters.count >= 2, characters[characters.count - 2] == ".",
      characters[characters.count - 1].isASCII, characters[characters.count - 1].isNumber
    {
      characters.removeLast(2)
    }
    func digits(_ part: ArraySlice<Character>) -> Bool {
      part.allSatisfy { $0.isASCII && $0.isNumber }
    }
    if let colon = characters.firstIndex(of: ":") {
      let minutes = characters[..<colon]
      let seconds = characters[(colon + 1)...]
      return (1...2).contains(minutes.count) && digits(minutes) && seconds.count == 2
        && digits(seconds) && seconds.first.map { "0"..."5" ~= $0 } == true
    }
    return (1...4).contains(characters.count) && digits(characters[...])
  }

  @Test func brightnessIsANumberAndBlankingASwitch() throws {
    let components = try Self.components(Self.discovery().payload())
    let brightness = try #require(
      components.first { $0.key == "court-1_board_brightness" }?.value)
    #expect(brightness["p"]?.stringValue == "number")
    #expect(brightness["min"]?.intValue == 0)
    #expect(brightness["max"]?.intValue == Int64(Action.maximumBrightness))
    #expect(brightness["val_tpl"]?.stringValue == "{{ value_json.brightness }}")
    #expect(brightness["cmd_tpl"]?.stringValue == "brightness {{ value | int }}")
    let blank = try #require(components.first { $0.key == "court-1_board_blank" }?.value)
    #expect(blank["p"]?.stringValue == "switch")
    #expect(blank["pl_on"]?.stringValue == "blank on")
    #expect(blank["pl_off"]?.stringValue == "blank off")
    #expect(blank["stat_on"]?.stringValue == "ON")
    #expect(blank["stat_off"]?.stringValue == "OFF")
    #expect(blank["val_tpl"]?.stringValue == "{{ 'ON' if value_json.blank else 'OFF' }}")
    // The state document has the members the templates read.
    let board = Scoreboard(spec: MQTTFixtures.spec())
    let document = try JSONValue.parse(
      StateDocument.json(of: board, at: Instant(nanoseconds: 0), wallClockMilliseconds: 0))
    #expect(document["brightness"]?.intValue == Int64(board.brightness))
    #expect(document["blank"]?.boolValue == false)
  }

  /// Entities are named by their field's label, with the name where fields share a label;
  /// keys and unique ids are made of the field's name, so a new label keeps them.
  @Test func entitiesAreNamedByTheirLabels() throws {
    func field(_ name: String, label: String, position: Int) -> FieldSpec {
      var field = MQTTFixtures.number(name, position: position, digits: 1)
      field.label = label
      return field
    }
    var game = MQTTFixtures.game()
    game.label = "TIME"
    let spec = MQTTFixtures.spec(
      [
        field("home", label: "Home", position: 0), field("home-fouls", label: "FOULS", position: 1),
        field("away-fouls", label: "FOULS", position: 2), field("away", label: "", position: 3),
        game,
      ], horns: [])
    let components = try Self.components(Self.discovery(spec).payload())
    let names = Dictionary(
      uniqueKeysWithValues: components.map { ($0.key, $0.value["name"]?.stringValue ?? "") })
    #expect(names["court-1_board_home"] == "Home")
    #expect(names["court-1_board_home-fouls"] == "FOULS (home-fouls)")
    #expect(names["court-1_board_away-fouls"] == "FOULS (away-fouls)")
    #expect(names["court-1_board_away"] == "away")
    #expect(names["court-1_board_game"] == "TIME")
    #expect(names["court-1_board_game_start"] == "TIME start")
    #expect(names["court-1_board_game_set"] == "TIME set")
    var relabelled = spec
    relabelled.fields[0].label = "GUESTS"
    let again = Self.discovery(relabelled)
    #expect(again.componentKeys == Self.discovery(spec).componentKeys)
    #expect(again.removals(since: Self.discovery(spec).componentKeys).isEmpty)
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
      [
        MQTTFixtures.number("undo", position: 0), MQTTFixtures.number("horn_main", position: 3),
        MQTTFixtures.number("blank", position: 6),
      ])
    let keys = try Self.components(Self.discovery(spec).payload()).map(\.key)
    #expect(
      keys
        == [
          "undo", "horn_main", "blank", "undo_2", "horn_main_2", "horn_buzzer", "brightness",
          "blank_2",
        ].map { "court-1_board_" + $0 })
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

  /// A field that goes removes every component it had; brightness and blanking stay.
  @Test func aRemovedClockTakesAllItsComponents() throws {
    let before = Self.discovery()
    let spec = MQTTFixtures.spec(
      [MQTTFixtures.number("home", position: 0, maximum: 199), MQTTFixtures.game()], horns: [])
    let removals = Self.discovery(spec).removals(since: before.componentKeys)
    #expect(
      removals.map(\.key)
        == [
          "away", "horn_buzzer", "horn_main", "period", "shot", "shot_minus_1", "shot_plus_1",
          "shot_reset_24", "shot_set", "shot_start", "shot_stop",
        ].map { "court-1_board_" + $0 })
    #expect(
      removals.map(\.platform)
        == [
          "number", "button", "button", "select", "sensor", "button", "button", "button", "text",
          "button", "button",
        ])
  }

  /// `home-assistant = no` after the board was announced: every component the retained
  /// payload has goes, whatever is configured now, and the device with them.
  @Test func theWholeDeviceIsRemoved() throws {
    let announced = Self.discovery().payload()
    let seen = try #require(HomeAssistantDiscovery.components(inPayload: announced))
    let fewer = Self.discovery(
      MQTTFixtures.spec([MQTTFixtures.number("home", position: 0)], horns: []))
    let payload = try #require(fewer.payload(removingAll: seen))
    let document = try JSONValue.parse(payload)
    #expect(document["dev"]?["ids"] == .array([.string("court-1_board")]))
    #expect(document["dev"]?["name"]?.stringValue == "Court 1")
    #expect(document["o"]?["name"]?.stringValue == "scoreboardd")
    let components = try #require(document["cmps"]?.members)
    #expect(components.map(\.key) == seen.keys.sorted())
    for component in components {
      #expect(component.value == .object([.init("p", .string(seen[component.key] ?? ""))]))
    }
    #expect(components.contains { $0.key == "court-1_board_blank" })
    // Kept at the topic, it reads back as a device without components: nothing more to
    // remove, and nothing to send.
    let readBack = try #require(HomeAssistantDiscovery.components(inPayload: payload))
    #expect(readBack.isEmpty)
    #expect(fewer.payload(removingAll: readBack) == nil)
    #expect(fewer.payload(removingAll: [:]) == nil)
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
