import ScoreboardCore

/// The board as one Home Assistant device (device discovery, Home Assistant 2024.11 and
/// later): one retained message at `<prefix>/device/<node_id>/config`.
///
/// Each number field is a `number` entity with the field's limits, each list field a
/// `select` with its options. Each clock is a `sensor` of what it shows, a `text` that
/// sets it (`set game 10:00`), and buttons: `start`, `stop`, one second more and less
/// (`adjust game +1`), and a reset to each of its reset values (`reset-clock shot 24.0`),
/// or one plain reset (`reset-clock game`) when it has none. `undo` and every horn are
/// buttons; the brightness is a `number` (0 to 15) and blanking a `switch`. Entities are
/// named by their field's label (`HOME`, `GAME start`), with the field's name beside a
/// label that several fields share; their keys and unique ids are made of the client id
/// and the field's name, so they stay when a label changes. Their state is read from the
/// state document (`StateDocument`) and their commands are control-protocol lines sent to
/// `<base>/command`. The topics, the availability and the QoS are given once for the
/// device, as the options Home Assistant shares with every component; the QoS is also
/// given to each component, since the first versions with device discovery share only
/// the topics and the availability.
///
/// A component that is no longer configured is deleted by sending it as `{"p":"PLATFORM"}`
/// alone (`payload(removing:)`); `payload(removingAll:)` deletes every component of a
/// device that is to leave Home Assistant.
public struct HomeAssistantDiscovery: Hashable, Sendable {
  /// One entity of the device: its key in `cmps` (also its `unique_id`), its platform and
  /// its options other than those two, as JSON members.
  public struct Component: Hashable, Sendable {
    public var key: String
    public var platform: String
    /// The options as (name, JSON text) pairs, in order.
    public var options: [Option]

    /// One option of a component: its name and its value as JSON text.
    public struct Option: Hashable, Sendable {
      public var name: String
      public var json: String

      public init(_ name: String, json: String) {
        self.name = name
        self.json = json
      }
    }

    public init(key: String, platform: String, options: [Option]) {
      self.key = key
      self.platform = platform
      self.options = options
    }
  }

  /// The prefix Home Assistant listens on unless configured otherwise.
  public static let defaultPrefix = "homeassistant"

  /// The device's id: the client id with every character outside `[a-zA-Z0-9_-]` as `_`.
  public let nodeID: String
  public let deviceName: String
  public let topics: Topics
  public let qos: Int
  public let prefix: String
  /// The entities, in the order of the configuration's fields, then `undo`, the horns, the
  /// brightness and blanking.
  public let components: [Component]

  /// The discovery of a board of `spec` whose MQTT client id is `clientID`.
  public init(
    spec: ScoreboardSpec, clientID: String, deviceName: String, topics: Topics, qos: Int,
    prefix: String = defaultPrefix
  ) {
    let nodeID = Self.identifier(clientID)
    self.nodeID = nodeID
    self.deviceName = deviceName
    self.topics = topics
    self.qos = qos
    self.prefix = prefix
    components = Self.components(of: spec, nodeID: nodeID, qos: qos)
  }

  /// `<prefix>/device/<node_id>/config`.
  public var topic: String {
    "\(prefix)/device/\(nodeID)/config"
  }

  /// Each component's key, with its platform.
  public var componentKeys: [String: String] {
    Dictionary(components.map { ($0.key, $0.platform) }, uniquingKeysWith: { first, _ in first })
  }

  /// The components a payload sent before had that this one lacks, for `payload(removing:)`:
  /// `previous` as `components(inPayload:)` read it.
  public func removals(since previous: [String: String]) -> [(key: String, platform: String)] {
    let current = componentKeys
    return previous.filter { current[$0.key] == nil }.sorted { $0.key < $1.key }
      .map { (key: $0.key, platform: $0.value) }
  }

  /// The retained payload: the device, the origin, the shared options and every
  /// component, with the components of `removing` (that are not components now) as their
  /// platform alone, which deletes them.
  public func payload(removing removed: [(key: String, platform: String)] = []) -> String {
    var members: [(key: String, json: String)] = components.map { component in
      let options =
        [("p", JSONText.string(component.platform)), ("unique_id", JSONText.string(component.key))]
        + component.options.map { ($0.name, $0.json) }
      return (component.key, JSONText.object(options))
    }
    let keys = Set(components.map(\.key))
    var removedKeys: Set<String> = []
    for removal in removed where !keys.contains(removal.key) {
      guard removedKeys.insert(removal.key).inserted else { continue }
      members.append((removal.key, Self.removal(removal.platform)))
    }
    return JSONText.object([
      ("dev", deviceJSON),
      ("o", Self.originJSON),
      ("avty_t", JSONText.string(topics.status)),
      ("pl_avail", JSONText.string("online")),
      ("pl_not_avail", JSONText.string("offline")),
      ("stat_t", JSONText.string(topics.state)),
      ("cmd_t", JSONText.string(topics.command)),
      ("qos", String(qos)),
      ("cmps", JSONText.object(members)),
    ])
  }

  /// The retained payload that takes the device out of Home Assistant: every component of
  /// `previous` (a retained payload's, as `components(inPayload:)` read it) as its platform
  /// alone, whatever is configured now; nil when there is nothing to delete.
  ///
  /// Sent retained at `topic`: Home Assistant deletes each entity, and the device with its
  /// last one (2025.4 does, without a warning), and a Home Assistant that starts later
  /// finds nothing to create. Kept there, it reads back as a device without components,
  /// so nothing is deleted twice. An empty payload instead makes Home Assistant warn "No
  /// device components to cleanup" whenever it knows none of them (deleted already, or
  /// never seen).
  public func payload(removingAll previous: [String: String]) -> String? {
    guard !previous.isEmpty else { return nil }
    let members = previous.sorted { $0.key < $1.key }.map { ($0.key, Self.removal($0.value)) }
    return JSONText.object([
      ("dev", deviceJSON), ("o", Self.originJSON), ("cmps", JSONText.object(members)),
    ])
  }

  /// `{"ids":[...],"name":...,...}`: the device, as every payload gives it.
  private var deviceJSON: String {
    JSONText.object([
      ("ids", JSONText.array([JSONText.string(nodeID)])),
      ("name", JSONText.string(deviceName)),
      ("mf", JSONText.string("scoreboardd")),
      ("mdl", JSONText.string("scoreboardd")),
      ("sw", JSONText.string(ProductVersion.text)),
    ])
  }

  private static var originJSON: String {
    JSONText.object([
      ("name", JSONText.string("scoreboardd")), ("sw", JSONText.string(ProductVersion.text)),
    ])
  }

  /// `{"p":"PLATFORM"}`: a component that is deleted.
  private static func removal(_ platform: String) -> String {
    JSONText.object([("p", JSONText.string(platform))])
  }

  /// The components of a retained discovery payload (key and platform), for working out
  /// what was removed since; components that are only `{"p":...}` (removed already) are
  /// left out. Nil for a payload that is not a device discovery.
  public static func components(inPayload payload: String) -> [String: String]? {
    guard let document = try? JSONValue.parse(payload),
      let members = (document["cmps"] ?? document["components"])?.members
    else { return nil }
    var components: [String: String] = [:]
    for member in members {
      guard let options = member.value.members,
        let platform = (member.value["p"] ?? member.value["platform"])?.stringValue
      else { return nil }
      if options.count > 1 {
        components[member.key] = platform
      }
    }
    return components
  }

  // MARK: - Components

  /// `text` with every character outside `[a-zA-Z0-9_-]` as `_` (an empty text as `_`).
  public static func identifier(_ text: String) -> String {
    let allowed = text.unicodeScalars.map { scalar -> Character in
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "_", "-": Character(scalar)
      default: "_"
      }
    }
    return allowed.isEmpty ? "_" : String(allowed)
  }

  private static func components(of spec: ScoreboardSpec, nodeID: String, qos: Int)
    -> [Component]
  {
    var components: [Component] = []
    var keys: Set<String> = []
    /// Adds a component under `<node_id>_<suffix>`, made unique with `_2`, `_3`... when
    /// names meet (a field called `undo`).
    func add(_ suffix: String, _ platform: String, _ options: [(String, String)]) {
      let base = nodeID + "_" + identifier(suffix)
      var key = base
      var number = 2
      while !keys.insert(key).inserted {
        key = base + "_\(number)"
        number += 1
      }
      let shared = [("qos", String(qos))]
      components.append(
        Component(
          key: key, platform: platform,
          options: (options + shared).map { Component.Option($0.0, json: $0.1) }))
    }
    func button(_ suffix: String, name: String, press: String) {
      add(suffix, "button", [("name", JSONText.string(name)), ("pl_prs", JSONText.string(press))])
    }
    let names = entityNames(of: spec.fields)
    for (field, entityName) in zip(spec.fields, names) {
      let name = JSONText.string(entityName)
      let fieldValue = "value_json.fields" + memberAccess(field.name)
      switch field.kind {
      case .number(let format):
        add(
          field.name, "number",
          [
            ("name", name),
            ("val_tpl", JSONText.string("{{ \(fieldValue).value }}")),
            ("cmd_tpl", JSONText.string("set \(field.name) {{ value | int }}")),
            ("min", String(format.minimum)),
            ("max", String(format.maximum)),
            ("step", "1"),
            ("mode", JSONText.string("box")),
          ])
      case .penalties(let format):
        // The slots as the board shows them, and a box that gives a penalty: `17 2:00`.
        add(
          field.name, "sensor",
          [("name", name), ("val_tpl", JSONText.string("{{ \(fieldValue).shown }}"))])
        add(
          field.name + "_add", "text",
          [
            ("name", JSONText.string(entityName + " add")),
            // Empty between entries: the box is for typing, the sensor shows the slots.
            ("val_tpl", JSONText.string("{{ '' }}")),
            ("cmd_tpl", JSONText.string("penalty add \(format.team) {{ value }}")),
            ("min", "0"),
            ("max", String(format.playerDigits + 6)),
          ])
      case .list(let options):
        add(
          field.name, "select",
          [
            ("name", name),
            ("options", JSONText.array(options.map(JSONText.string))),
            ("val_tpl", JSONText.string("{{ \(fieldValue).value }}")),
            ("cmd_tpl", JSONText.string("set \(field.name) {{ value }}")),
          ])
      case .clock(let format):
        let shown = JSONText.string("{{ \(fieldValue).shown }}")
        add(field.name, "sensor", [("name", name), ("val_tpl", shown)])
        let clock = field.name
        button(
          clock + "_start", name: entityName + " start",
          press: Action.start(clock: clock).description)
        button(
          clock + "_stop", name: entityName + " stop", press: Action.stop(clock: clock).description)
        add(
          clock + "_set", "text",
          [
            ("name", JSONText.string(entityName + " set")),
            ("val_tpl", shown),
            ("cmd_tpl", JSONText.string("set \(clock) {{ value }}")),
            ("ptrn", JSONText.string(clockTimePattern)),
            ("min", "1"),
            ("max", String(clockTimeLength)),
          ])
        // Named in words: Home Assistant makes entity ids of names without their signs.
        let adjustments: [(word: String, amount: Duration)] = [
          ("plus", .seconds(1)), ("minus", .seconds(-1)),
        ]
        for adjustment in adjustments {
          button(
            "\(clock)_\(adjustment.word)_1", name: "\(entityName) \(adjustment.word) 1 s",
            press: Action.adjust(clock: clock, amount: adjustment.amount).description)
        }
        var seen: Set<Duration> = []
        for time in format.resets where seen.insert(time).inserted {
          let text = resetText(time, format: format)
          button(
            "\(clock)_reset_\(text)", name: "\(entityName) reset \(text)",
            press: Action.resetClock(clock: clock, time: time).description)
        }
        if format.resets.isEmpty {
          button(
            clock + "_reset", name: entityName + " reset",
            press: Action.resetClock(clock: clock, time: nil).description)
        }
      }
    }
    button("undo", name: "undo", press: ControlRequest.undo.description)
    if spec.periodField != nil {
      button("next_period", name: "next period", press: ControlRequest.nextPeriod.description)
    }
    for team in spec.fields.compactMap(\.timeouts?.team) {
      let request = ControlRequest.timeout(team: team).description
      button("timeout_" + team, name: request, press: request)
    }
    for horn in spec.horns {
      let request = ControlRequest.horn(horn.name).description
      button("horn_" + horn.name, name: request, press: request)
    }
    add(
      "brightness", "number",
      [
        ("name", JSONText.string("brightness")),
        ("val_tpl", JSONText.string("{{ value_json.brightness }}")),
        ("cmd_tpl", JSONText.string("brightness {{ value | int }}")),
        ("min", "0"),
        ("max", String(Action.maximumBrightness)),
        ("step", "1"),
        ("mode", JSONText.string("slider")),
      ])
    add(
      "blank", "switch",
      [
        ("name", JSONText.string("blank")),
        ("val_tpl", JSONText.string("{{ 'ON' if value_json.blank else 'OFF' }}")),
        ("stat_on", JSONText.string("ON")),
        ("stat_off", JSONText.string("OFF")),
        ("pl_on", JSONText.string(ControlRequest.blank(true).description)),
        ("pl_off", JSONText.string(ControlRequest.blank(false).description)),
      ])
    return components
  }

  /// What the control protocol reads as a clock's time (`ClockText.parse`): `M:SS` or
  /// seconds, each with an optional tenth.
  public static let clockTimePattern = #"^([0-9]{1,2}:[0-5][0-9]|[0-9]{1,4})(\.[0-9])?$"#

  /// The longest time text: `99:59.9`.
  public static let clockTimeLength = 7

  /// Each field's entity name: its label, and its name in brackets when another field
  /// has the same label (`FOULS (home-fouls)`); the name when the label is empty.
  public static func entityNames(of fields: [FieldSpec]) -> [String] {
    var count: [String: Int] = [:]
    for field in fields {
      count[field.label, default: 0] += 1
    }
    return fields.map { field in
      guard !field.label.isEmpty else { return field.name }
      guard count[field.label, default: 0] > 1 else { return field.label }
      return "\(field.label) (\(field.name))"
    }
  }

  /// A reset value as a button shows it: `24`, `14.5`, `12:00`.
  private static func resetText(_ time: Duration, format: ClockFormat) -> String {
    let tenths = time.components.attoseconds != 0
    return ClockText.text(time, tenths: tenths, minutes: format.role == .game)
  }

  /// `.home` for a name a template can follow with a dot, `['a-b']` for any other.
  private static func memberAccess(_ name: String) -> String {
    let startsWithADigit = name.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? true
    let isIdentifier =
      !startsWithADigit
      && name.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "_"
      }
    guard !isIdentifier else { return "." + name }
    var quoted = ""
    for character in name {
      if character == "\\" || character == "'" {
        quoted.append("\\")
      }
      quoted.append(character)
    }
    return "['\(quoted)']"
  }
}
