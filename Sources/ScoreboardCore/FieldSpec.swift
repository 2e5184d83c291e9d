/// The configured shape of one field: where it is shown and what it holds.
public struct FieldSpec: Hashable, Sendable {
  /// What a field holds.
  public enum Kind: Hashable, Sendable {
    /// A number typed on the keypad.
    case number(NumberFormat)
    /// One of a fixed list of values (`1 2 3 4 OT`), stepped with up/down.
    case list([String])
    /// A game clock or a shot clock: its time is in `Scoreboard.clocks`, not in
    /// `Scoreboard.values`.
    case clock(ClockFormat)
    /// A team's penalties, each a player number and its time left: their list is in
    /// `Scoreboard.penalties`, not in `Scoreboard.values`.
    case penalties(PenaltyFormat)
  }

  /// The field's name in the configuration, keymaps and the control socket (`home`).
  public var name: String
  /// A human label (`HOME`), shown by the terminal display and in status output.
  public var label: String
  /// The display the field is shown on.
  public var display: String
  /// The index of the field's leftmost cell on that display, from 0.
  public var position: Int
  /// How many cells the field occupies.
  public var width: Int
  public var kind: Kind
  /// The value at first start and after a reset: a number, or an index into the list.
  public var defaultValue: Int
  /// A number field that counts a team's fouls: its bonus and when it starts again;
  /// nil for other fields.
  public var teamFouls: TeamFoulRules?
  /// A field that counts the periods: the game clock's length in each, by the field's
  /// values in order (a list's, or the numbers from its minimum), the last for every
  /// period after it. `next-period` moves such a field on. Nil for other fields.
  public var periodLengths: [Duration]?
  /// The field that counts the periods: the score fields whose points it keeps period by
  /// period (`home away`), taken at each `next-period`. Nil: none.
  public var periodScores: [String]?
  /// The field that counts the periods: the break after each period, by the field's
  /// values in order (the last for every period after it), which `next-period` loads on
  /// `breakClock` and starts (2:00 between quarters, 15:00 at half time). Nil: none.
  public var breakLengths: [Duration]?
  /// The clock that runs the breaks (often one that takes over the game clock's cells).
  public var breakClock: String?
  /// A clock shown in the cells of another field (the game clock's) while it runs, and
  /// not at all while it stands (a timeout's clock): that field's name. Its display,
  /// position and width are that field's. Nil for other fields.
  public var takesOver: String?
  /// A number field that counts a team's timeouts left: `timeout TEAM` takes one.
  public var timeouts: TimeoutRules?

  public init(
    name: String, label: String, display: String, position: Int, width: Int, kind: Kind,
    defaultValue: Int, teamFouls: TeamFoulRules? = nil, periodLengths: [Duration]? = nil,
    timeouts: TimeoutRules? = nil, periodScores: [String]? = nil
  ) {
    self.name = name
    self.label = label
    self.display = display
    self.position = position
    self.width = width
    self.kind = kind
    self.defaultValue = defaultValue
    self.teamFouls = teamFouls
    self.periodLengths = periodLengths
    self.timeouts = timeouts
    self.periodScores = periodScores
  }

  /// The game clock's length in the period `value` of a field that counts periods.
  public func periodLength(of value: Int) -> Duration? {
    guard let lengths = periodLengths, !lengths.isEmpty else { return nil }
    return lengths[min(max(value - valueRange.lowerBound, 0), lengths.count - 1)]
  }

  /// The break after the period `value` of a field that counts periods; nil for none.
  public func breakLength(after value: Int) -> Duration? {
    guard let breaks = breakLengths, !breaks.isEmpty else { return nil }
    return breaks[min(max(value - valueRange.lowerBound, 0), breaks.count - 1)]
  }

  /// The cells of this field on its display.
  public var cells: Range<Int> {
    position..<(position + width)
  }

  /// The smallest and largest value the field can hold (list fields: their indices).
  public var valueRange: ClosedRange<Int> {
    switch kind {
    case .number(let format): format.minimum...format.maximum
    case .list(let values): 0...(values.count - 1)
    case .clock, .penalties: 0...0
    }
  }

  /// Whether the field is a clock. Asked where only that matters: a `clockFormat`
  /// made and thrown away costs its destruction through the runtime's generic code.
  public var isClock: Bool {
    if case .clock = kind { true } else { false }
  }

  /// The clock format of a clock field; nil for other fields.
  public var clockFormat: ClockFormat? {
    if case .clock(let format) = kind { format } else { nil }
  }

  /// The value as text: `12`, `OT` (a clock's value is not a number: empty).
  public func text(of value: Int) -> String {
    switch kind {
    case .number: String(value)
    case .list(let values): values.indices.contains(value) ? values[value] : "?"
    case .clock, .penalties: ""
    }
  }

  /// The value a text names: a number in range, or one of the list's values (a clock's
  /// time is read by `ClockText.parse`).
  public func value(parsing text: String) -> Int? {
    switch kind {
    case .number(let format):
      guard let value = Int(text), (format.minimum...format.maximum).contains(value) else {
        return nil
      }
      return value
    case .list(let values):
      return values.firstIndex(of: text)
        ?? values.firstIndex(where: { $0.lowercased() == text.lowercased() })
    case .clock, .penalties:
      return nil
    }
  }
}

/// How a number field is typed and shown.
public struct NumberFormat: Hashable, Sendable {
  /// How digits typed on the keypad fill the field.
  public enum EntryMode: String, Hashable, Sendable, CaseIterable {
    /// A cursor starts at the leftmost cell; each digit sets the cell under it and
    /// advances; backspace moves the cursor left.
    case overwrite
    /// Calculator style: digits enter from the right; backspace drops the last one.
    case shift
  }

  /// What the unused leading cells of a right-aligned number show.
  public enum Placeholder: String, Hashable, Sendable, CaseIterable {
    case zero = "0"
    case blank
    case dash = "-"

    /// The cell's segments.
    public var segments: Segments {
      switch self {
      case .zero: SegmentFont.digit(0)
      case .blank: .blank
      case .dash: .g
      }
    }
  }

  /// The most digits a field may have.
  public static let maximumDigits = 9

  /// The number of digit cells, 1...9.
  public var digits: Int
  public var minimum: Int
  public var maximum: Int
  public var placeholder: Placeholder
  public var entry: EntryMode
  /// Overwrite mode: typing into the last cell commits the edit.
  public var commitOnLastDigit: Bool

  public init(
    digits: Int, minimum: Int = 0, maximum: Int? = nil, placeholder: Placeholder = .blank,
    entry: EntryMode = .overwrite, commitOnLastDigit: Bool = true
  ) {
    self.digits = digits
    self.minimum = minimum
    self.maximum = maximum ?? Self.largest(digits: digits)
    self.placeholder = placeholder
    self.entry = entry
    self.commitOnLastDigit = commitOnLastDigit
  }

  /// The largest number `digits` cells can show (`99` for 2).
  public static func largest(digits: Int) -> Int {
    var value = 1
    for _ in 0..<digits {
      value *= 10
    }
    return value - 1
  }
}
