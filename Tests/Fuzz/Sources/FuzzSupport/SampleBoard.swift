import ScoreboardCore

/// The scoreboards the fuzz targets drive, and the keymap their keys go through.
///
/// Every kind of field is there: type-over with commit at the last digit, calculator
/// style, a list, nine digits above a minimum, one digit above zero. The three
/// boards differ in cursor, timings and undo depth, down to zero and up to the clock's
/// end, so that any time a key carries meets every deadline rule. A fourth is an ice
/// hockey board: a game clock, the scores, and two teams' penalties, which a goal on
/// the power play ends.
public enum SampleBoard {
  /// The boards, chosen by the targets from a byte of their input.
  public static let specs: [ScoreboardSpec] = [
    spec(
      cursor: .blink, blink: .milliseconds(500), timeout: .seconds(15), reset: .seconds(2),
      flash: .milliseconds(300), brightness: 8, undoDepth: 32),
    spec(
      cursor: .dp, blink: .nanoseconds(1), timeout: nil, reset: .nanoseconds(1),
      flash: .zero, brightness: 15, undoDepth: 1),
    spec(
      cursor: .none, blink: .seconds(Int64.max), timeout: .seconds(Int64.max),
      reset: .seconds(Int64.max), flash: .seconds(Int64.max), brightness: 0, undoDepth: 0),
    hockey,
  ]

  /// A game clock of 20:00, the scores and each team's penalties (two slots, two serving).
  private static var hockey: ScoreboardSpec {
    func penalties(_ team: String, position: Int) -> FieldSpec {
      FieldSpec(
        name: team + "-penalties", label: "PEN", display: "side", position: position, width: 10,
        kind: .penalties(
          PenaltyFormat(
            team: team, lengths: [.seconds(120), .seconds(300)],
            endsOnGoalOf: team == "home" ? "away" : "home", minor: .seconds(120))),
        defaultValue: 0)
    }
    return ScoreboardSpec(
      fields: [
        FieldSpec(
          name: "game", label: "GAME", display: "main", position: 0, width: 4,
          kind: .clock(ClockFormat(role: .game, length: .seconds(1200))), defaultValue: 0),
        number("home", display: "main", position: 4, digits: 2),
        number("away", display: "main", position: 6, digits: 2),
        penalties("home", position: 0), penalties("away", position: 10),
      ],
      displays: [
        DisplayLayout(name: "main", cellCount: 8), DisplayLayout(name: "side", cellCount: 20),
      ])
  }

  /// The board for `byte`: one of `specs`.
  public static func spec(for byte: UInt8) -> ScoreboardSpec {
    specs[Int(byte) % specs.count]
  }

  /// Every action on some key: the demo's keyboard keymap, a numpad's keys, and direct
  /// actions at the limits of what keymaps and the control socket take.
  public static let keymap = Keymap(
    name: "fuzz",
    bindings: Dictionary(
      keymapLines.map { line in
        let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
        return (Key(parsing: parts[0])!, try! Action(parsing: parts[1]))
      }, uniquingKeysWith: { first, _ in first }))

  private static let keymapLines =
    (0...9).map { "KEY_\($0) = digit \($0)" } + (0...9).map { "KEY_KP\($0) = digit \($0)" } + [
      "KEY_ENTER = commit", "KEY_KPENTER = commit", "KEY_BACKSPACE = backspace",
      "KEY_ESC = cancel", "KEY_TAB = next", "shift+KEY_TAB = previous", "KEY_RIGHT = next",
      "KEY_LEFT = previous", "KEY_UP = up", "KEY_DOWN = down", "KEY_KPPLUS = up",
      "KEY_KPMINUS = down", "KEY_H = add home +1", "shift+KEY_H = add home -1",
      "KEY_A = add away +1", "shift+KEY_A = add away -1", "KEY_P = add period +1",
      "shift+KEY_P = add period -1000000000", "KEY_C = add count +1000000000",
      "shift+KEY_C = add count -1000000000", "KEY_E = add +1000000000",
      "shift+KEY_E = add -1000000000", "KEY_S = select away", "shift+KEY_S = select count",
      "KEY_Q = select quarter", "KEY_T = set home 42", "shift+KEY_T = set period OT",
      "KEY_N = set count -99999999", "shift+KEY_N = set count 999999999", "KEY_U = undo",
      "KEY_R = reset", "KEY_B = blank", "KEY_O = blank on", "shift+KEY_O = blank off",
      "KEY_KPASTERISK = brightness up", "KEY_KPSLASH = brightness down",
      "KEY_V = brightness 15", "shift+KEY_V = brightness 0",
      "KEY_W = brightness +1000000000", "shift+KEY_W = brightness -1000000000",
      "KEY_X = set nosuchfield 1", "shift+KEY_X = select nosuchfield",
      "KEY_G = start-stop", "shift+KEY_G = adjust +3", "KEY_Y = penalty add home 7 2:00",
      "shift+KEY_Y = penalty end home 7", "KEY_Z = penalty add away 99 9:59",
      "shift+KEY_Z = penalty remove away 99", "KEY_J = select home-penalties",
      "shift+KEY_J = reset-clock",
    ]

  private static func spec(
    cursor: ScoreboardSpec.CursorStyle, blink: Duration, timeout: Duration?, reset: Duration,
    flash: Duration, brightness: Int, undoDepth: Int
  ) -> ScoreboardSpec {
    ScoreboardSpec(
      fields: [
        number("home", display: "main", position: 0, digits: 2),
        number(
          "away", display: "main", position: 3, digits: 3, maximum: 199, placeholder: .zero,
          entry: .shift),
        FieldSpec(
          name: "period", label: "PERIOD", display: "main", position: 6, width: 2,
          kind: .list(["1", "2", "3", "4", "OT"]), defaultValue: 0),
        number(
          "count", display: "side", position: 0, digits: 9, minimum: 5,
          placeholder: .dash, commitOnLastDigit: false, defaultValue: 5),
        number(
          "quarter", display: "side", position: 9, digits: 1, minimum: 1, maximum: 4,
          defaultValue: 1),
      ],
      displays: [
        DisplayLayout(name: "main", cellCount: 8), DisplayLayout(name: "side", cellCount: 10),
      ],
      cursor: cursor, blinkInterval: blink, editTimeout: timeout, resetWindow: reset,
      refusalFlash: flash, brightness: brightness, undoDepth: undoDepth)
  }

  private static func number(
    _ name: String, display: String, position: Int, digits: Int, minimum: Int = 0,
    maximum: Int? = nil, placeholder: NumberFormat.Placeholder = .blank,
    entry: NumberFormat.EntryMode = .overwrite, commitOnLastDigit: Bool = true,
    defaultValue: Int = 0
  ) -> FieldSpec {
    FieldSpec(
      name: name, label: name.uppercased(), display: display, position: position, width: digits,
      kind: .number(
        NumberFormat(
          digits: digits, minimum: minimum, maximum: maximum, placeholder: placeholder,
          entry: entry, commitOnLastDigit: commitOnLastDigit)),
      defaultValue: defaultValue)
  }
}

extension Substring {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
