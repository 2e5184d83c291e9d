/// An open edit of one field: what has been typed so far, and the value to restore
/// on cancel.
public struct EditSession: Hashable, Sendable {
  /// What has been typed, by entry mode.
  public enum Entry: Hashable, Sendable {
    /// Type-over: one digit (or nil for an empty leading cell) per cell, and the
    /// cell under the cursor.
    case overwrite(cells: [Int?], cursor: Int)
    /// Calculator style: the digits typed, most significant first. `fresh` until the
    /// first key: the first digit replaces the old value instead of appending to it.
    case shift(digits: [Int], fresh: Bool)
    /// A list field: the index of the value on show.
    case list(index: Int)
    /// A penalty being given on a penalties field: the player's number typed so far (most
    /// significant digit first) and the index of the length chosen among the field's.
    case penalty(player: [Int], length: Int)

    /// The entry a session on `field` starts with when it holds `value`: the value's
    /// digits with the cursor on the left cell, the value to be replaced by the first
    /// digit, or the list value.
    static func start(_ field: FieldSpec, value: Int) -> Entry {
      switch field.kind {
      case .number(let format):
        let digits = EditSession.digits(of: value)
        switch format.entry {
        case .overwrite:
          let leading = Array(repeating: Int?.none, count: max(format.digits - digits.count, 0))
          return .overwrite(cells: leading + digits.map { Optional($0) }, cursor: 0)
        case .shift:
          return .shift(digits: digits, fresh: true)
        }
      case .list:
        return .list(index: value)
      case .clock(let format):
        return start(format, time: .seconds(value))
      case .penalties:
        return .penalty(player: [], length: 0)
      }
    }

    /// The entry a session on a clock of `format` starts with when it shows `time`: its
    /// digits as they would be typed (`1200` for 12:00, `00524` for 0:52.4), to be
    /// replaced by the first digit; type-over, the whole-second digits. Both are rounded
    /// the way the clock rounds what it shows (up counting down), so that the entry starts
    /// from what the clock showed.
    static func start(_ format: ClockFormat, time: Duration) -> Entry {
      let tenths = format.roundedToTenth(time).nanoseconds / ClockText.tenth
      let roundsUp = format.direction == .down && format.entry == .overwrite
      let seconds = roundsUp ? (tenths + 9) / 10 : tenths / 10
      let wholeSeconds = format.role == .game ? seconds / 60 * 100 + seconds % 60 : seconds
      let whole = EditSession.digits(of: Int(wholeSeconds))
      switch format.entry {
      case .overwrite:
        let leading = Array(
          repeating: Int?.none, count: max(format.wholeSecondDigits - whole.count, 0))
        return .overwrite(cells: leading + whole.map { Optional($0) }, cursor: 0)
      case .shift:
        guard tenths % 10 != 0 else { return .shift(digits: whole, fresh: true) }
        let padded =
          Array(repeating: 0, count: max(format.wholeSecondDigits - whole.count, 0)) + whole
        return .shift(digits: padded + [Int(tenths % 10)], fresh: true)
      }
    }
  }

  /// The time a clock entry stands for: up to the whole-second digits as `MMSS` (a game
  /// clock) or seconds, one digit more with tenths; nil when it names no time (`12:75`,
  /// too many digits).
  static func time(of entry: Entry, format: ClockFormat) -> Duration? {
    let digits: [Int]
    switch entry {
    case .overwrite(let cells, _): digits = cells.map { $0 ?? 0 }
    case .shift(let typed, _): digits = typed
    case .list, .penalty: return nil
    }
    let whole = format.wholeSecondDigits
    guard digits.count <= whole + 1 else { return nil }
    let hasTenth = digits.count == whole + 1
    let number = Int64(Self.number(hasTenth ? Array(digits.dropLast()) : digits))
    let tenth = hasTenth ? Int64(digits.last!) : 0
    var seconds = number
    if format.role == .game {
      guard number % 100 < 60 else { return nil }
      seconds = number / 100 * 60 + number % 100
    }
    return .nanoseconds(seconds * ClockText.second + tenth * ClockText.tenth)
  }

  /// The index of the field in `ScoreboardSpec.fields`.
  public internal(set) var field: Int
  /// The value before the session; cancel restores it.
  public internal(set) var originalValue: Int
  public internal(set) var entry: Entry
  /// The time of the session's last key; the cursor blink and the idle timeout run from it.
  public internal(set) var lastActivity: Instant

  /// The value the entry stands for.
  public var pendingValue: Int {
    switch entry {
    case .overwrite(let cells, _): Self.number(cells.map { $0 ?? 0 })
    case .shift(let digits, _): Self.number(digits)
    case .list(let index): index
    case .penalty(let player, _): Self.number(player)
    }
  }

  /// The cell that carries the cursor, counted from the field's leftmost cell.
  public func cursorCell(width: Int) -> Int {
    switch entry {
    case .overwrite(let cells, let cursor): cursor + max(width - cells.count, 0)
    case .shift, .list: width - 1
    case .penalty(_, _): width - 1
    }
  }

  static func number(_ digits: [Int]) -> Int {
    digits.reduce(0) { $0 * 10 + $1 }
  }

  /// The decimal digits of `value`, most significant first (`[0]` for zero).
  static func digits(of value: Int) -> [Int] {
    var digits: [Int] = []
    var rest = value
    repeat {
      digits.insert(rest % 10, at: 0)
      rest /= 10
    } while rest > 0
    return digits
  }
}
