import ScoreboardCore

/// A small scoreboard used by the scenarios: `main` has 7 cells,
/// home at cells 0-1, away at 3-4 and the period at 5-6.
enum Fixtures {
  static func number(
    _ name: String, position: Int, digits: Int = 2, minimum: Int = 0, maximum: Int? = nil,
    placeholder: NumberFormat.Placeholder = .blank, entry: NumberFormat.EntryMode = .overwrite,
    commitOnLastDigit: Bool = true, defaultValue: Int = 0
  ) -> FieldSpec {
    FieldSpec(
      name: name, label: name.uppercased(), display: "main", position: position, width: digits,
      kind: .number(
        NumberFormat(
          digits: digits, minimum: minimum, maximum: maximum, placeholder: placeholder,
          entry: entry, commitOnLastDigit: commitOnLastDigit)),
      defaultValue: defaultValue)
  }

  static let period = FieldSpec(
    name: "period", label: "PERIOD", display: "main", position: 5, width: 2,
    kind: .list(["1", "2", "3", "4", "OT"]), defaultValue: 0)

  static func spec(
    home: FieldSpec = number("home", position: 0),
    away: FieldSpec = number("away", position: 3, placeholder: .zero, entry: .shift),
    cursor: ScoreboardSpec.CursorStyle = .blink,
    editTimeout: Duration? = .seconds(15)
  ) -> ScoreboardSpec {
    ScoreboardSpec(
      fields: [home, away, period], displays: [DisplayLayout(name: "main", cellCount: 7)],
      cursor: cursor, blinkInterval: .milliseconds(500), editTimeout: editTimeout,
      resetWindow: .seconds(2), refusalFlash: .milliseconds(300), brightness: 8, undoDepth: 32)
  }
}

/// Drives a scoreboard through a scenario of actions at explicit times (milliseconds).
struct Scenario {
  var board: Scoreboard

  init(_ spec: ScoreboardSpec = Fixtures.spec()) {
    board = Scoreboard(spec: spec)
  }

  @discardableResult
  mutating func at(_ milliseconds: Int64, _ actions: Action...) throws -> [ScoreboardEvent] {
    var events: [ScoreboardEvent] = []
    for action in actions {
      events += try board.perform(action, at: .milliseconds(milliseconds))
    }
    return events
  }

  @discardableResult
  mutating func advance(to milliseconds: Int64) -> [ScoreboardEvent] {
    board.advance(to: .milliseconds(milliseconds))
  }

  /// What the `main` display reads at a moment, e.g. `12 00 1`.
  func shows(at milliseconds: Int64) -> String {
    Renderer.frames(of: board, at: .milliseconds(milliseconds))[0].text
  }

  func value(_ name: String) -> String? {
    board.text(of: name)
  }
}
