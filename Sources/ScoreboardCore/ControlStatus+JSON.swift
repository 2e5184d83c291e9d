extension ControlStatus {
  /// The status as one line of JSON, for scripts (`scoreboardctl status --json`):
  ///
  ///     {"fields":{"home":"12","away":"7","period":"OT"},"brightness":8,"blank":false,
  ///      "editing":null,"displays":{"main":{"online":true}},"keypads":{...},
  ///      "stateFile":{"status":"saved"}}
  ///
  /// Field values are strings, as the fields show them; objects keep the configuration's
  /// order.
  public func json() -> String {
    // Statement by statement: Swift 6.0's type checker gives up on one long expression.
    let fieldMembers = fields.map { "\(Self.json($0.name)):\(Self.json($0.text))" }
    var text = "{\"fields\":{\(fieldMembers.joined(separator: ","))},"
    text += "\"brightness\":\(brightness),\"blank\":\(isBlanked),"
    text += "\"editing\":\(editing.map(Self.json) ?? "null"),"
    text += "\"displays\":\(Self.json(displays)),\"keypads\":\(Self.json(keypads)),"
    text += "\"stateFile\":\(Self.json(stateFile))"
    if !clocks.isEmpty {
      text += ",\"clocks\":\(Self.json(clocks, key: "running"))"
    }
    if !horns.isEmpty {
      text += ",\"horns\":\(Self.json(horns, key: "sounding"))"
    }
    if !periods.isEmpty {
      text += ",\"periods\":\(Self.json(periods: periods))"
    }
    if !sets.isEmpty {
      let items = sets.map { "[" + $0.split(separator: "/").joined(separator: ",") + "]" }
      text += ",\"sets\":[" + items.joined(separator: ",") + "]"
    }
    if let mqtt {
      text += ",\"mqtt\":{\"connected\":\(mqtt.isConnected)"
      text += (mqtt.isStale.map { ",\"stale\":\($0)" } ?? "") + "}"
    }
    return text + "}"
  }

  /// `{"game":{"running":true},...}`.
  private static func json(_ switches: [Switch], key: String) -> String {
    let members = switches.map { "\(json($0.name)):{\"\(key)\":\($0.isOn)}" }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// `[{"period":"1","points":[25,20]},...]` of `1:25/20` words.
  private static func json(periods: [String]) -> String {
    let items = periods.map { word -> String in
      let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      let points = parts.count == 2 ? parts[1].split(separator: "/").map(String.init) : []
      return "{\"period\":\(json(String(parts[0]))),\"points\":[\(points.joined(separator: ","))]}"
    }
    return "[" + items.joined(separator: ",") + "]"
  }

  /// `{"status":"saved"}`, `{"status":"none"}`, or
  /// `{"status":"failing","since":"2026-12-01T10:32:05+01:00"}`.
  private static func json(_ stateFile: StateFile) -> String {
    switch stateFile {
    case .saved: "{\"status\":\"saved\"}"
    case .none: "{\"status\":\"none\"}"
    case .failing(let since): "{\"status\":\"failing\",\"since\":\(json(since))}"
    }
  }

  /// `{"main":{"online":true},...}`.
  private static func json(_ devices: [Device]) -> String {
    let members = devices.map { "\(json($0.name)):{\"online\":\($0.isOnline)}" }
    return "{" + members.joined(separator: ",") + "}"
  }

  private static func json(_ text: String) -> String {
    JSONString.quoted(text)
  }
}
