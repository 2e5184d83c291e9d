import ScoreboardCore

/// The board as one Home Assistant device (device discovery, Home Assistant 2024.11 and
/// later): one retained message at `<prefix>/device/<node_id>/config`.
///
/// Each number field is a `number` entity with the field's limits, each list field a
/// `select` with its options, each clock a `sensor` of what it shows with `start` and
/// `stop` buttons; `undo` and every horn are buttons. Their state is read from the state
/// document (`StateDocument`) and their commands are control-protocol lines sent to
/// `<base>/command`. The topics, the availability and the QoS are given once for the
/// device, as the options Home Assistant shares with every component; the QoS is also
/// given to each component, since the first versions with device discovery share only
/// the topics and the availability.
///
/// A component that is no longer configured is deleted by sending it as `{"p":"PLATFORM"}`
/// alone (`payload(removing:)`); an empty retained payload deletes the whole device.
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
  /// The entities, in the order of the configuration's fields, then `undo` and the horns.
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
    let version = JSONText.string(ProductVersion.text)
    let device = JSONText.object([
      ("ids", JSONText.array([JSONText.string(nodeID)])),
      ("name", JSONText.string(deviceName)),
      ("mf", JSONText.string("scoreboardd")),
      ("mdl", JSONText.string("scoreboardd")),
      ("sw", version),
    ])
    let origin = JSONText.object([("name", JSONText.string("scoreboardd")), ("sw", version)])
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
      members.append((removal.key, JSONText.object([("p", JSONText.string(removal.platform))])))
    }
    return JSONText.object([
      ("dev", device),
      ("o", origin),
      ("avty_t", JSONText.string(topics.status)),
      ("pl_avail", JSONText.string("online")),
      ("pl_not_avail", JSONText.string("offline")),
      ("stat_t", JSONText.string(topics.state)),
      ("cmd_t", JSONText.string(topics.command)),
      ("qos", String(qos)),
      ("cmps", JSONText.object(members)),
    ])
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
    for field in spec.fields {
      let name = JSONText.string(field.name)
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
      case .list(let options):
        add(
          field.name, "select",
          [
            ("name", name),
            ("options", JSONText.array(options.map(JSONText.string))),
            ("val_tpl", JSONText.string("{{ \(fieldValue).value }}")),
            ("cmd_tpl", JSONText.string("set \(field.name) {{ value }}")),
          ])
      case .clock:
        add(
          field.name, "sensor",
          [("name", name), ("val_tpl", JSONText.string("{{ \(fieldValue).shown }}"))])
        let start = Action.start(clock: field.name).description
        let stop = Action.stop(clock: field.name).description
        button(field.name + "_start", name: start, press: start)
        button(field.name + "_stop", name: stop, press: stop)
      }
    }
    button("undo", name: "undo", press: ControlRequest.undo.description)
    for horn in spec.horns {
      let request = ControlRequest.horn(horn.name).description
      button("horn_" + horn.name, name: request, press: request)
    }
    return components
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
