import ScoreboardCore

/// A basketball board for the MQTT tests: home (0-199) and away scores, the period
/// (`1 2 3 4 OT`), a game clock of 10:00 counting down, a shot clock of 24 s that does
/// not follow it, and the horns `main` and `buzzer`.
enum MQTTFixtures {
  static func number(_ name: String, position: Int, digits: Int = 3, maximum: Int? = nil)
    -> FieldSpec
  {
    FieldSpec(
      name: name, label: name.uppercased(), display: "main", position: position, width: digits,
      kind: .number(NumberFormat(digits: digits, maximum: maximum)), defaultValue: 0)
  }

  static let period = FieldSpec(
    name: "period", label: "PERIOD", display: "main", position: 6, width: 2,
    kind: .list(["1", "2", "3", "4", "OT"]), defaultValue: 0)

  static func game(direction: ClockFormat.Direction = .down) -> FieldSpec {
    FieldSpec(
      name: "game", label: "GAME", display: "main", position: 8, width: 4,
      kind: .clock(ClockFormat(role: .game, direction: direction, length: .seconds(600))),
      defaultValue: 0)
  }

  static let shot = FieldSpec(
    name: "shot", label: "SHOT", display: "main", position: 12, width: 2,
    kind: .clock(ClockFormat(role: .shot, length: .seconds(24), resets: [.seconds(24)])),
    defaultValue: 0)

  static func spec(
    _ fields: [FieldSpec] = [
      number("home", position: 0, maximum: 199), number("away", position: 3), period, game(),
      shot,
    ],
    horns: [HornSpec] = [HornSpec(name: "main", clocks: ["game"]), HornSpec(name: "buzzer")]
  ) -> ScoreboardSpec {
    ScoreboardSpec(
      fields: fields, displays: [DisplayLayout(name: "main", cellCount: 14)], horns: horns)
  }
}

extension Scoreboard {
  /// Performs `actions` one after the other at `now`.
  mutating func run(_ actions: Action..., at now: Instant) throws {
    for action in actions {
      _ = try perform(action, at: now)
    }
  }
}
