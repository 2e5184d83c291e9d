/// The whole state `status` answers with: field values, brightness, blanking, the field
/// being edited, and which displays and keypads are online.
///
/// On the wire it is one line of `name=value` words (values contain no spaces):
/// `ok home=12 away=7 period=OT brightness=8 blank=off editing=- displays=main:online
/// keypads=numpad:online`.
public struct ControlStatus: Hashable, Sendable {
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

  /// A status made of its parts.
  public init(
    fields: [Field], brightness: Int, isBlanked: Bool, editing: String?, displays: [Device],
    keypads: [Device]
  ) {
    self.fields = fields
    self.brightness = brightness
    self.isBlanked = isBlanked
    self.editing = editing
    self.displays = displays
    self.keypads = keypads
  }

  /// The status of `board` (committed values, not an entry being typed), with the
  /// devices the caller knows about.
  public init(_ board: Scoreboard, displays: [Device], keypads: [Device]) {
    self.init(
      fields: zip(board.spec.fields, board.values).map { field, value in
        Field(name: field.name, text: field.text(of: value))
      },
      brightness: board.brightness, isBlanked: board.isBlanked,
      editing: board.session.map { board.spec.fields[$0.field].name }, displays: displays,
      keypads: keypads)
  }

  /// The answer line, without its newline: `ok home=12 ... keypads=numpad:online`. An
  /// empty device list and no edit session are written `-`.
  public func line() -> String {
    let words =
      fields.map { "\($0.name)=\($0.text)" } + [
        "brightness=\(brightness)", "blank=\(isBlanked ? "on" : "off")",
        "editing=\(editing ?? "-")", "displays=\(Self.text(of: displays))",
        "keypads=\(Self.text(of: keypads))",
      ]
    return "ok " + words.joined(separator: " ")
  }

  /// Parses the answer to `status`, as `line()` writes it.
  ///
  /// The last five words are always `brightness`, `blank`, `editing`, `displays` and
  /// `keypads`, so a field may have any of those names.
  /// - Throws: `ControlSyntaxError` naming the first word that is wrong.
  public init(parsing line: String) throws(ControlSyntaxError) {
    guard line.hasPrefix("ok ") else {
      throw ControlSyntaxError(description: "expected a status line 'ok ...', found '\(line)'")
    }
    let words = line.dropFirst(3).split(separator: " ").map(String.init)
    let keys = ["brightness", "blank", "editing", "displays", "keypads"]
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
      keypads: try Self.devices(values[4], "keypads"))
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
