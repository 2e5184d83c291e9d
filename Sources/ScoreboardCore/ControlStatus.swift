/// The whole state `status` answers with: field values, brightness, blanking, the field
/// being edited, which displays and keypads are online, and whether the scores are saved.
///
/// On the wire it is one line of `name=value` words (values contain no spaces):
/// `ok home=12 away=7 period=OT brightness=8 blank=off editing=- displays=main:online
/// keypads=numpad:online state-file=saved`. A board with clocks adds
/// `clocks=game:running,shot:stopped` (their times are the fields' values, `game=11:34.2`),
/// one with horns `horns=main:off`, one whose period field keeps scores by period
/// `periods=1:25/20,2:18/22` (each period's points, the current one last), one with set
/// scoring `sets=25/23,22/25` (the points of each set won).
public struct ControlStatus: Hashable, Sendable {
  /// Whether the committed values are in the state file.
  public enum StateFile: Hashable, Sendable {
    /// Every committed value is in the state file.
    case saved
    /// Writing the state file fails since the local time `since`
    /// (`2026-12-01T10:32:05+01:00`): the latest values live in memory only.
    case failing(since: String)
    /// No state file is configured (`state-file = none`).
    case none
  }

  /// A field and its value as the field shows it (`12`, `OT`).
  public struct Field: Hashable, Sendable {
    public var name: String
    public var text: String

    /// The field `name` showing `text`.
    public init(name: String, text: String) {
      self.name = name
      self.text = text
    }
  }

  /// A display or keypad and whether it works now.
  public struct Device: Hashable, Sendable {
    public var name: String
    public var isOnline: Bool

    /// The device `name`, online or not.
    public init(name: String, isOnline: Bool) {
      self.name = name
      self.isOnline = isOnline
    }
  }

  /// The fields in configuration order.
  public var fields: [Field]
  /// 0...15.
  public var brightness: Int
  public var isBlanked: Bool
  /// The field of the open edit session, if any.
  public var editing: String?
  public var displays: [Device]
  public var keypads: [Device]
  /// Whether the values are saved.
  public var stateFile: StateFile
  /// The clocks and whether each runs, in configuration order; empty without clocks.
  public var clocks: [Switch] = []
  /// The horns and whether each sounds, in configuration order; empty without horns.
  public var horns: [Switch] = []
  /// Each period's points of the score fields (`1:25/20`), the current one last; empty
  /// when the period field keeps no scores.
  public var periods: [String] = []
  /// The points of each set won (`25/23`), oldest first; empty without set scoring.
  public var sets: [String] = []
  /// The link to the MQTT broker, on a board that has one.
  public var mqtt: MQTTLink?

  /// Whether the board is connected to its MQTT broker and, on a mirror, whether what it
  /// shows is stale (its source or the broker is away).
  public struct MQTTLink: Hashable, Sendable {
    public var isConnected: Bool
    /// nil on a board that is not a mirror.
    public var isStale: Bool?

    public init(isConnected: Bool, isStale: Bool? = nil) {
      self.isConnected = isConnected
      self.isStale = isStale
    }
  }

  /// A clock that runs or not, a horn that sounds or not.
  public struct Switch: Hashable, Sendable {
    public var name: String
    public var isOn: Bool

    public init(name: String, isOn: Bool) {
      self.name = name
      self.isOn = isOn
    }
  }

  /// A status made of its parts.
  public init(
    fields: [Field], brightness: Int, isBlanked: Bool, editing: String?, displays: [Device],
    keypads: [Device], stateFile: StateFile
  ) {
    self.fields = fields
    self.brightness = brightness
    self.isBlanked = isBlanked
    self.editing = editing
    self.displays = displays
    self.keypads = keypads
    self.stateFile = stateFile
  }

  /// The status of `board` (committed values, not an entry being typed), with the
  /// devices and the state file as the caller knows them.
  public init(
    _ board: Scoreboard, displays: [Device], keypads: [Device], stateFile: StateFile,
    at now: Instant = .zero
  ) {
    self.init(
      fields: board.spec.fields.indices.map { index in
        Field(name: board.spec.fields[index].name, text: board.valueText(of: index, at: now))
      },
      brightness: board.brightness, isBlanked: board.isBlanked,
      editing: board.session.map { board.spec.fields[$0.field].name }, displays: displays,
      keypads: keypads, stateFile: stateFile)
    clocks = board.spec.fields.indices.compactMap { index in
      board.clocks[index].map {
        Switch(name: board.spec.fields[index].name, isOn: $0.isRunning)
      }
    }
    horns = board.spec.horns.indices.map { index in
      Switch(name: board.spec.horns[index].name, isOn: board.hornIsSounding(index, at: now))
    }
    sets = board.finishedSets.map { $0.map(String.init).joined(separator: "/") }
    if let period = board.spec.periodField {
      periods = board.scoresByPeriod.map { entry in
        board.spec.fields[period].text(of: entry.period) + ":"
          + entry.points.map(String.init).joined(separator: "/")
      }
    }
  }

  /// The answer line, without its newline: `ok home=12 ... keypads=numpad:online`. An
  /// empty device list and no edit session are written `-`.
  public func line() -> String {
    response.line
  }

  /// The answer to `status`: `ok` with its words.
  public var response: ControlResponse {
    // Statement by statement: Swift 6.0's type checker gives up on one long expression.
    var words = fields.map { "\($0.name)=\($0.text)" }
    words += [
      "brightness=\(brightness)", "blank=\(isBlanked ? "on" : "off")",
      "editing=\(editing ?? "-")", "displays=\(Self.text(of: displays))",
      "keypads=\(Self.text(of: keypads))", "state-file=\(Self.text(of: stateFile))",
    ]
    if !clocks.isEmpty {
      words.append("clocks=" + Self.text(of: clocks, on: "running", off: "stopped"))
    }
    if !horns.isEmpty {
      words.append("horns=" + Self.text(of: horns, on: "on", off: "off"))
    }
    if !periods.isEmpty {
      words.append("periods=" + periods.joined(separator: ","))
    }
    if !sets.isEmpty {
      words.append("sets=" + sets.joined(separator: ","))
    }
    var link: [String] = []
    if let mqtt {
      link.append("mqtt=" + (mqtt.isConnected ? "connected" : "disconnected"))
      if let stale = mqtt.isStale {
        link.append("mirror=" + (stale ? "stale" : "live"))
      }
    }
    return .ok((words + link).joined(separator: " "))
  }

  /// Parses the answer to `status`, as `line()` writes it.
  ///
  /// The last six words are always `brightness`, `blank`, `editing`, `displays`,
  /// `keypads` and `state-file`, so a field may have any of those names.
  /// - Throws: `ControlSyntaxError` naming the first word that is wrong.
  public init(parsing line: String) throws(ControlSyntaxError) {
    guard line.hasPrefix("ok ") else {
      throw ControlSyntaxError(description: "expected a status line 'ok ...', found '\(line)'")
    }
    var words = line.dropFirst(3).split(separator: " ").map(String.init)
    var horns: [Switch] = []
    var clocks: [Switch] = []
    var isStale: Bool?
    var mqtt: MQTTLink?
    if let last = words.last, last.hasPrefix("mirror=") {
      guard last == "mirror=live" || last == "mirror=stale" else {
        throw ControlSyntaxError(
          description: "expected mirror=live or mirror=stale, found '\(last)'")
      }
      isStale = last == "mirror=stale"
      words.removeLast()
    }
    if let last = words.last, last.hasPrefix("mqtt=") {
      guard last == "mqtt=connected" || last == "mqtt=disconnected" else {
        throw ControlSyntaxError(
          description: "expected mqtt=connected or mqtt=disconnected, found '\(last)'")
      }
      mqtt = MQTTLink(isConnected: last == "mqtt=connected", isStale: isStale)
      words.removeLast()
    }
    var sets: [String] = []
    if let last = words.last, last.hasPrefix("sets=") {
      sets = last.dropFirst(5).split(separator: ",", omittingEmptySubsequences: false)
        .map(String.init)
      guard sets.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isNumber || $0 == "/" } }) else {
        throw ControlSyntaxError(description: "expected sets=POINTS/POINTS,..., found '\(last)'")
      }
      words.removeLast()
    }
    var periods: [String] = []
    if let last = words.last, last.hasPrefix("periods=") {
      periods = last.dropFirst(8).split(separator: ",", omittingEmptySubsequences: false)
        .map(String.init)
      guard periods.allSatisfy({ $0.contains(":") && !$0.hasPrefix(":") }) else {
        throw ControlSyntaxError(
          description: "expected periods=PERIOD:POINTS/POINTS,..., found '\(last)'")
      }
      words.removeLast()
    }
    if let last = words.last, last.hasPrefix("horns=") {
      horns = try Self.switches(String(last.dropFirst(6)), "horns", on: "on", off: "off")
      words.removeLast()
    }
    if let last = words.last, last.hasPrefix("clocks=") {
      clocks = try Self.switches(String(last.dropFirst(7)), "clocks", on: "running", off: "stopped")
      words.removeLast()
    }
    let keys = ["brightness", "blank", "editing", "displays", "keypads", "state-file"]
    guard words.count >= keys.count else {
      throw ControlSyntaxError(
        description: "expected a status line ending in "
          + keys.map { "\($0)=..." }.joined(separator: " ") + ", found '\(line)'")
    }
    var fields: [Field] = []
    for word in words.dropLast(keys.count) {
      let (name, text) = try Self.pair(word)
      fields.append(Field(name: name, text: text))
    }
    var values: [String] = []
    for (key, word) in zip(keys, words.suffix(keys.count)) {
      let (name, value) = try Self.pair(word)
      guard name == key else {
        throw ControlSyntaxError(description: "expected \(key)=..., found '\(word)'")
      }
      values.append(value)
    }
    guard let brightness = Int(values[0]), (0...Action.maximumBrightness).contains(brightness)
    else {
      throw ControlSyntaxError(
        description: "expected brightness=0-15, found 'brightness=\(values[0])'")
    }
    guard values[1] == "on" || values[1] == "off" else {
      throw ControlSyntaxError(
        description: "expected blank=on or blank=off, found 'blank=\(values[1])'")
    }
    self.init(
      fields: fields, brightness: brightness, isBlanked: values[1] == "on",
      editing: values[2] == "-" ? nil : values[2],
      displays: try Self.devices(values[3], "displays"),
      keypads: try Self.devices(values[4], "keypads"), stateFile: try Self.stateFile(values[5]))
    self.clocks = clocks
    self.horns = horns
    self.periods = periods
    self.sets = sets
    self.mqtt = mqtt
  }

  /// `game:running,shot:stopped`.
  private static func text(of switches: [Switch], on: String, off: String) -> String {
    switches.map { "\($0.name):\($0.isOn ? on : off)" }.joined(separator: ",")
  }

  private static func switches(_ text: String, _ key: String, on: String, off: String)
    throws(ControlSyntaxError) -> [Switch]
  {
    var switches: [Switch] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = item.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, parts[1] == on || parts[1] == off else {
        throw ControlSyntaxError(
          description: "expected \(key)=NAME:\(on)|\(off),..., found '\(key)=\(text)'")
      }
      switches.append(Switch(name: String(parts[0]), isOn: parts[1] == on))
    }
    return switches
  }

  /// `saved`, `none` or `failing-since-TIME`.
  private static func text(of stateFile: StateFile) -> String {
    switch stateFile {
    case .saved: "saved"
    case .failing(let since): "failing-since-" + since
    case .none: "none"
    }
  }

  private static func stateFile(_ text: String) throws(ControlSyntaxError) -> StateFile {
    let failing = "failing-since-"
    switch text {
    case "saved": return .saved
    case "none": return .none
    case _ where text.hasPrefix(failing) && text.count > failing.count:
      return .failing(since: String(text.dropFirst(failing.count)))
    default:
      throw ControlSyntaxError(
        description: "expected state-file=saved, none or failing-since-TIME, "
          + "found 'state-file=\(text)'")
    }
  }

  /// `main:online,side:offline`, or `-` for none.
  private static func text(of devices: [Device]) -> String {
    guard !devices.isEmpty else { return "-" }
    return devices.map { "\($0.name):\($0.isOnline ? "online" : "offline")" }
      .joined(separator: ",")
  }

  private static func devices(_ text: String, _ key: String) throws(ControlSyntaxError)
    -> [Device]
  {
    guard text != "-" else { return [] }
    var devices: [Device] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = item.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, parts[1] == "online" || parts[1] == "offline"
      else {
        throw ControlSyntaxError(
          description: "expected \(key)=NAME:online|offline,..., found '\(key)=\(text)'")
      }
      devices.append(Device(name: String(parts[0]), isOnline: parts[1] == "online"))
    }
    return devices
  }

  /// Splits `name=value` at its first `=`.
  private static func pair(_ word: String) throws(ControlSyntaxError) -> (String, String) {
    guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
      throw ControlSyntaxError(description: "expected NAME=VALUE, found '\(word)'")
    }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
  }
}
