/// The kinds of section a configuration file has: `[scoreboard]`, `[field NAME]` and so on.
enum SectionKind: String, CaseIterable {
  case scoreboard
  case field
  case display
  case keypad
  case keymap
  case horn
  case label
  case mqtt
  case web
  case sets

  /// Whether sections of this kind carry a name (`[field home]`); `[scoreboard]`,
  /// `[mqtt]`, `[web]` and `[sets]` do not.
  var isNamed: Bool {
    self != .scoreboard && self != .mqtt && self != .web && self != .sets
  }

  /// A header of this kind, for messages: `[field home]`.
  var exampleHeader: String {
    switch self {
    case .scoreboard: "[scoreboard]"
    case .field: "[field home]"
    case .display: "[display main]"
    case .keypad, .keymap: "[\(rawValue) numpad]"
    case .horn: "[horn main]"
    case .label: "[label home-name]"
    case .mqtt: "[mqtt]"
    case .web: "[web]"
    case .sets: "[sets]"
    }
  }
}
