/// How a penalties field keeps and shows one team's penalties (ice hockey's minors and
/// majors, handball's 2-minute suspensions, rugby's sin bin): the team, the clock whose
/// time they count, how many count down at once, and the slots a display shows.
public struct PenaltyFormat: Hashable, Sendable {
  /// The team's name in `penalty add TEAM ...` (`home`).
  public var team: String
  /// The clock whose running time the penalties count (the game clock); nil: the board's
  /// main clock.
  public var clock: String?
  /// At most this many of the team's penalties count down at once (hockey: 2); the next
  /// one waits and starts when one ends.
  public var serving: Int
  /// How many penalties the display shows, each a player number and its time left.
  public var slots: Int
  /// The cells of a player number in a slot.
  public var playerDigits: Int
  /// The cells of a slot's time: 3 (`M:SS`) or 4 (`MM:SS`).
  public var timeDigits: Int
  /// The lengths the keypad offers, the first the one it starts with (`2:00 5:00`).
  public var lengths: [Duration]
  /// The score field of the other team: when it goes up while this team has more
  /// penalties serving than the other (a power-play goal), the earliest serving penalty
  /// of `minor`'s length ends. Nil: penalties end by time or by hand alone.
  public var endsOnGoalOf: String?
  /// The length of a penalty a power-play goal ends (hockey's minor, 2:00).
  public var minor: Duration?

  /// The most penalties a team's list holds (ended ones are dropped first).
  public static let maximumCount = 24

  public init(
    team: String, clock: String? = nil, serving: Int = 2, slots: Int = 2, playerDigits: Int = 2,
    timeDigits: Int = 3, lengths: [Duration] = [.seconds(120)], endsOnGoalOf: String? = nil,
    minor: Duration? = nil
  ) {
    self.team = team
    self.clock = clock
    self.serving = serving
    self.slots = slots
    self.playerDigits = playerDigits
    self.timeDigits = timeDigits
    self.lengths = lengths
    self.endsOnGoalOf = endsOnGoalOf
    self.minor = minor
  }

  /// The cells of one slot: the player's number, then the time.
  public var slotWidth: Int { playerDigits + timeDigits }

  /// The cells of the whole field.
  public var width: Int { slots * slotWidth }

  /// The largest player number the slots show (`99` for 2 digits).
  public var largestPlayer: Int { NumberFormat.largest(digits: playerDigits) }

  /// The longest penalty the slots show: 9:59 in `M:SS`, 99:59 in `MM:SS`.
  public var longest: Duration {
    timeDigits >= 4 ? ClockFormat.longest : .seconds(599)
  }
}
