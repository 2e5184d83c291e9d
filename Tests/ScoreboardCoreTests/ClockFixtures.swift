import ScoreboardCore

/// A basketball board for the clock scenarios: display `main` of 8 cells, the game clock
/// (`MM:SS`) at cells 0-3, the shot clock following it at cells 4-5, home at cells 6-7;
/// horn `main` sounds at the game clock's zero, horn `buzzer` at the shot clock's.
enum ClockFixtures {
  static func game(
    length: Duration = .seconds(720), direction: ClockFormat.Direction = .down,
    tenthsBelow: Duration? = nil, entry: NumberFormat.EntryMode = .shift,
    commitOnLastDigit: Bool = true, position: Int = 0, width: Int = 4
  ) -> FieldSpec {
    FieldSpec(
      name: "game", label: "GAME", display: "main", position: position, width: width,
      kind: .clock(
        ClockFormat(
          role: .game, direction: direction, length: length, tenthsBelow: tenthsBelow,
          entry: entry, commitOnLastDigit: commitOnLastDigit)),
      defaultValue: 0)
  }

  static func shot(
    length: Duration = .seconds(24), resets: [Duration] = [.seconds(24), .seconds(14)],
    follows: String? = "game", blanks: Bool = true, entry: NumberFormat.EntryMode = .shift,
    position: Int = 4, width: Int = 2
  ) -> FieldSpec {
    FieldSpec(
      name: "shot", label: "SHOT", display: "main", position: position, width: width,
      kind: .clock(
        ClockFormat(
          role: .shot, length: length, entry: entry, resets: resets, follows: follows,
          blanksWhenFollowedHasLess: blanks)),
      defaultValue: 0)
  }

  static let home = Fixtures.number("home", position: 6)

  static let mainHorn = HornSpec(
    name: "main", clocks: ["game"], duration: .milliseconds(1500), holdLimit: .seconds(5))
  static let buzzer = HornSpec(
    name: "buzzer", clocks: ["shot"], duration: .seconds(1), holdLimit: .seconds(5))

  static func spec(
    _ fields: [FieldSpec] = [game(), shot(), home], horns: [HornSpec] = [mainHorn, buzzer],
    cellCount: Int = 8
  ) -> ScoreboardSpec {
    ScoreboardSpec(
      fields: fields, displays: [DisplayLayout(name: "main", cellCount: cellCount)],
      cursor: .blink, blinkInterval: .milliseconds(500), editTimeout: .seconds(15),
      resetWindow: .seconds(2), refusalFlash: .milliseconds(300), brightness: 8,
      undoDepth: 32, horns: horns)
  }

  /// A board of `spec` with the game clock loaded with `game` (stopped), without an undo
  /// entry.
  static func board(_ spec: ScoreboardSpec = spec(), game: Duration? = nil) -> Scoreboard {
    var board = Scoreboard(spec: spec)
    if let game {
      board.restoreClock("game", ClockState(time: game))
    }
    return board
  }
}

/// An instant `seconds` and `nanoseconds` after the origin.
func instant(_ seconds: Int64, _ nanoseconds: Int64 = 0) -> Instant {
  Instant(nanoseconds: seconds * 1_000_000_000 + nanoseconds)
}

extension Scoreboard {
  /// Performs `actions` one after the other at `now`, and returns every event.
  @discardableResult
  mutating func run(_ actions: Action..., at now: Instant) throws -> [ScoreboardEvent] {
    var events: [ScoreboardEvent] = []
    for action in actions {
      events += try perform(action, at: now)
    }
    return events
  }

  /// What field `name` shows at `now`, read from its cells with the segment font: a digit
  /// per cell, `:` after the cell the colon follows and `.` after any other lit point, a
  /// space for a dark cell (`12:00`, ` 59.9`, `  `).
  func shows(_ name: String, at now: Instant) -> String {
    guard let index = index(of: name) else { return "no field \(name)" }
    let shown = Renderer.fieldRendering(of: self, field: index, at: now)
    var text = ""
    for (cell, segments) in shown.cells.enumerated() {
      text.append(SegmentFont.character(for: segments) ?? "?")
      if segments.contains(.dp) {
        text.append(cell == shown.colon ? ":" : ".")
      }
    }
    return text
  }

  /// The state of clock `name`.
  func clock(_ name: String) -> ClockState? {
    index(of: name).flatMap { clocks[$0] }
  }

  /// The exact time on clock `name` at `now`.
  func time(_ name: String, at now: Instant) -> Duration {
    index(of: name).map { clockTime($0, at: now) } ?? .zero
  }

  /// Whether horn `name` sounds at `now`.
  func horn(_ name: String, at now: Instant) -> Bool {
    spec.horns.firstIndex { $0.name == name }.map { hornIsSounding($0, at: now) } ?? false
  }
}
