/// A line the control socket streams to clients that sent `watch`, such as
/// `event value home 12`.
public enum ControlEvent: Hashable, Sendable {
  /// A field's committed value changed; `text` is the value as the field shows it.
  case value(field: String, text: String)
  /// The brightness changed, 0...15.
  case brightness(Int)
  /// Every display was blanked (true) or unblanked (false).
  case blank(Bool)
  /// An edit session opened on a field.
  case editing(field: String)
  /// The edit session on a field ended, committed or cancelled.
  case editingEnded(field: String, committed: Bool)
  /// A display went offline or came back online.
  case display(name: String, online: Bool)
  /// A keypad went offline or came back online.
  case keypad(name: String, online: Bool)
  /// Writing the state file began to fail (false), or works again and every value is
  /// saved (true).
  case stateFile(saved: Bool)
  /// A clock started, was stopped, or ran out; `time` is what it shows, to the tenth.
  case clock(field: String, change: ClockChange, time: String)
  /// A horn began (true) or stopped (false) sounding.
  case horn(name: String, sounding: Bool)
  /// A team's penalty was added, started, ended, went back to waiting or was removed;
  /// `length` is its length (`2:00`).
  case penalty(team: String, player: Int, length: String, change: ScoreboardEvent.PenaltyChange)

  /// What happened to a clock.
  public enum ClockChange: String, Hashable, Sendable {
    case started
    case stopped
    /// It reached zero (its end, counting up) and stopped there.
    case zero
  }

  /// The event a watcher is told about for a scoreboard event; nil for the events
  /// watchers do not get (entry typing, focus moves, refused keys, an armed reset).
  ///
  /// - Parameter spec: Turns values into the text the fields show (`OT` for a list
  ///   field's index 4).
  public init?(_ event: ScoreboardEvent, spec: ScoreboardSpec) {
    switch event {
    case .valueChanged(let name, _, let value):
      guard let field = spec.field(named: name) else { return nil }
      self = .value(field: name, text: field.text(of: value))
    case .clockChanged(let name, _, let time):
      guard let format = spec.field(named: name)?.clockFormat else { return nil }
      self = .value(field: name, text: Self.clockText(time, format))
    case .clockStarted(let name, let time):
      guard let format = spec.field(named: name)?.clockFormat else { return nil }
      self = .clock(field: name, change: .started, time: Self.clockText(time, format))
    case .clockStopped(let name, let time):
      guard let format = spec.field(named: name)?.clockFormat else { return nil }
      self = .clock(field: name, change: .stopped, time: Self.clockText(time, format))
    case .clockRanOut(let name):
      guard let format = spec.field(named: name)?.clockFormat else { return nil }
      self = .clock(field: name, change: .zero, time: Self.clockText(format.endTime, format))
    case .hornChanged(let name, let sounding):
      self = .horn(name: name, sounding: sounding)
    case .brightnessChanged(let level):
      self = .brightness(level)
    case .blankChanged(let blanked):
      self = .blank(blanked)
    case .editingBegan(let name):
      self = .editing(field: name)
    case .editingEnded(let name, let committed):
      self = .editingEnded(field: name, committed: committed)
    case .penaltyChanged(let team, let player, let length, let change):
      self = .penalty(
        team: team, player: player, length: ClockText.text(length, tenths: false, minutes: true),
        change: change)
    case .editingChanged, .refused, .focusChanged, .resetArmed:
      return nil
    }
  }

  /// The line, without its newline: `event value home 12`, `event blank on`,
  /// `event editing-ended home committed`, `event display main offline`.
  public var line: String {
    switch self {
    case .value(let field, let text): "event value \(field) \(text)"
    case .brightness(let level): "event brightness \(level)"
    case .blank(let blanked): "event blank \(blanked ? "on" : "off")"
    case .editing(let field): "event editing \(field)"
    case .editingEnded(let field, let committed):
      "event editing-ended \(field) \(committed ? "committed" : "cancelled")"
    case .display(let name, let online): "event display \(name) \(online ? "online" : "offline")"
    case .keypad(let name, let online): "event keypad \(name) \(online ? "online" : "offline")"
    case .stateFile(let saved): "event state-file \(saved ? "saved" : "failing")"
    case .clock(let field, let change, let time): "event clock \(field) \(change.rawValue) \(time)"
    case .horn(let name, let sounding): "event horn \(name) \(sounding ? "on" : "off")"
    case .penalty(let team, let player, let length, let change):
      "event penalty \(team) \(player) \(length) \(change.rawValue)"
    }
  }

  /// A clock's time as status lines and events give it: to the tenth, rounded as the
  /// clock shows it (`11:34.2`, `23.5`).
  static func clockText(_ time: Duration, _ format: ClockFormat) -> String {
    format.exactText(time)
  }
}
