/// How a clock field counts, stops, is typed and is shown.
///
/// A game clock shows `MM:SS`, and `SS.t` (tenths) while less than `tenthsBelow` is on
/// it; a shot clock shows whole seconds (`24`), and `S.t` below its threshold (5 s by
/// default). Counting down, the clock shows the time rounded up to what it shows (`0:01`
/// until the last second has run out, `0.0` only at zero); counting up, rounded down.
public struct ClockFormat: Hashable, Sendable {
  /// Which way the clock counts.
  public enum Direction: String, Hashable, Sendable, CaseIterable {
    /// From the period length to zero, where it stops.
    case down
    /// From zero to the period length, where it stops.
    case up
  }

  /// What the clock is for, which decides how it is shown and typed.
  public enum Role: Hashable, Sendable {
    /// A game clock: `MM:SS`, typed as up to 4 digits (`1200`) or 5 with tenths.
    case game
    /// A shot clock (or play clock): seconds only, typed as up to 2 digits or 3 with
    /// tenths.
    case shot
  }

  /// The longest period a clock can count: 99:59. (Counting down from 99:59.9, a clock
  /// would show its time rounded up, 100:00, which `MM:SS` cannot show.)
  public static let longest: Duration = .seconds(5_999)

  public var role: Role
  public var direction: Direction
  /// Where a clock counting down starts and resets to; where one counting up stops.
  public var length: Duration
  /// Tenths are shown while the shown time is below this (one minute for a game clock);
  /// `.zero` never shows them, `longest` and more always do.
  public var tenthsBelow: Duration
  /// How digits typed on the keypad fill the entry.
  public var entry: NumberFormat.EntryMode
  /// Type-over entry: typing into the last cell commits the edit.
  public var commitOnLastDigit: Bool
  /// The values reset keys load (a shot clock's 24 and 14); the first is what `reset`
  /// loads without a value. Empty: the period length.
  public var resets: [Duration]
  /// The clock this one starts and stops with (a shot clock following the game clock).
  public var follows: String?
  /// Blank while less time is on the clock this one follows than on this one (the shot
  /// clock is switched off when it can no longer run out before the game clock).
  public var blanksWhenFollowedHasLess: Bool

  public init(
    role: Role, direction: Direction = .down, length: Duration,
    tenthsBelow: Duration? = nil, entry: NumberFormat.EntryMode = .shift,
    commitOnLastDigit: Bool = true, resets: [Duration] = [], follows: String? = nil,
    blanksWhenFollowedHasLess: Bool = true
  ) {
    self.role = role
    self.direction = direction
    self.length = length
    self.tenthsBelow = tenthsBelow ?? (role == .game ? .seconds(60) : .seconds(5))
    self.entry = entry
    self.commitOnLastDigit = commitOnLastDigit
    self.resets = resets
    self.follows = follows
    self.blanksWhenFollowedHasLess = blanksWhenFollowedHasLess
  }

  /// The time at first start and after a reset: the first reset value, else zero
  /// counting up and the period length counting down.
  public var startTime: Duration {
    if let first = resets.first {
      return first
    }
    return direction == .down ? length : .zero
  }

  /// Where the clock stops by itself: zero counting down, the length counting up.
  public var endTime: Duration {
    direction == .down ? .zero : length
  }

  /// How many digits a whole-second entry has: 4 (`MMSS`) or 2 (`SS`); one more types
  /// tenths.
  public var wholeSecondDigits: Int {
    role == .game ? 4 : 2
  }

  /// `time` to the tenth, rounded the way the clock rounds: up counting down, down
  /// counting up.
  public func roundedToTenth(_ time: Duration) -> Duration {
    let nanoseconds = max(time.nanoseconds, 0)
    let tenth = ClockText.tenth
    return .nanoseconds(
      direction == .down
        ? (nanoseconds + tenth - 1) / tenth * tenth : nanoseconds / tenth * tenth)
  }

  /// The exact text of `time`, to the tenth: `11:34.2`, `53.8`, `23.5`.
  public func exactText(_ time: Duration) -> String {
    ClockText.exact(roundedToTenth(time), minutes: role == .game)
  }

  /// The time the clock shows for the exact time `time`: rounded up to a tenth or a
  /// second counting down, down counting up.
  public func shownTime(_ time: Duration) -> (time: Duration, tenths: Bool) {
    let nanoseconds = max(time.nanoseconds, 0)
    let tenths = roundedToTenth(time).nanoseconds
    let showsTenths = tenths < tenthsBelow.nanoseconds
    if showsTenths {
      return (.nanoseconds(tenths), true)
    }
    let second = ClockText.second
    let seconds =
      direction == .down
      ? (nanoseconds + second - 1) / second * second : nanoseconds / second * second
    return (.nanoseconds(seconds), false)
  }

  /// The text the clock shows for `time`: `12:00`, `9:59`, `53.8`, `24`, `4.9`.
  public func text(_ time: Duration) -> String {
    let shown = shownTime(time)
    return ClockText.text(shown.time, tenths: shown.tenths, minutes: role == .game)
  }
}
