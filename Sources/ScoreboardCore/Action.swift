/// Something an operator asks the scoreboard to do: what a key is mapped to, or what
/// `press`/`set`/`add` on the control socket carry.
///
/// The text form (`digit 7`, `add home +1`, `brightness up`) is the one keymaps use.
public enum Action: Hashable, Sendable, CustomStringConvertible {
  /// How brightness changes.
  public enum BrightnessChange: Hashable, Sendable {
    /// Up or down by this many steps (clamped to 0...15).
    case by(Int)
    /// To this level, 0...15.
    case to(Int)
  }

  /// How blanking changes.
  public enum BlankChange: Hashable, Sendable {
    case toggle
    case on
    case off
  }

  /// Type a digit into the focused field (starting an edit session if none is open).
  case digit(Int)
  /// Overwrite mode: move the cursor left. Shift mode: drop the last digit.
  case backspace
  /// End the edit session and keep what was typed (the "Done" key).
  case commit
  /// End the edit session and restore the value it started with.
  case cancel
  /// Move the focus to the next field and start editing it.
  case next
  /// Move the focus to the previous field and start editing it.
  case previous
  /// Focus the named field and start editing it.
  case select(field: String)
  /// Add to a field (the focused one when `field` is nil): numbers are clamped to
  /// min/max, list fields step through their values and wrap.
  case add(field: String?, amount: Int)
  /// Set a field to a value given as text (a number, or one of a list field's values).
  case set(field: String, value: String)
  /// Revert the last committed change.
  case undo
  /// Reset every field to its default; takes effect on a second press in time.
  case reset
  case brightness(BrightnessChange)
  case blank(BlankChange)
  /// Start a clock (the main clock when nil); the clocks that follow it start with it.
  case start(clock: String?)
  /// Stop a clock (the main clock when nil) and the clocks that follow it.
  case stop(clock: String?)
  /// Start a stopped clock, stop a running one.
  case startStop(clock: String?)
  /// Move a stopped clock's time by `amount` (the focused clock, else the main clock, when
  /// nil), within zero and its period length.
  case adjust(clock: String?, amount: Duration)
  /// Load a clock with `time`, else its first reset value or its period length (a shot
  /// clock's 24 or 14); it keeps running or stays stopped, but for a clock that follows a
  /// running one, which starts with it (a shot clock reset during play).
  case resetClock(clock: String?, time: Duration?)
  /// Sound a horn for as long as the key is held (the first horn when nil).
  case horn(String?)
  /// Arm the pairing of a phone or tablet with the board's web console: the daemon
  /// shows a one-time code on the displays (the board itself changes nothing).
  case pair
  /// The next period: the period field moves on, the game clock is loaded with the
  /// period's length (stopped), the clocks that follow it are reset, and what the rules
  /// set back at a period's start is set back; one `undo` takes it all back.
  case nextPeriod
  /// A timeout for a team: its timeouts left go down by one, the game clock stops and
  /// the timeout clock starts from its length; one `undo` takes it all back.
  case timeout(team: String)
  /// Give, end or take off a team's penalty.
  case penalty(PenaltyAction)

  /// The kind of an action, named by its first word (`add` for `add home +1`; `up` and
  /// `down` are `add`).
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case digit, backspace, commit, cancel, next, previous, select, add, set, undo, reset
    case brightness, blank, start, stop
    case startStop = "start-stop"
    case adjust
    case resetClock = "reset-clock"
    case horn
    case pair
    case nextPeriod = "next-period"
    case timeout
    case penalty
  }

  /// This action's kind.
  public var kind: Kind {
    switch self {
    case .digit: .digit
    case .backspace: .backspace
    case .commit: .commit
    case .cancel: .cancel
    case .next: .next
    case .previous: .previous
    case .select: .select
    case .add: .add
    case .set: .set
    case .undo: .undo
    case .reset: .reset
    case .brightness: .brightness
    case .blank: .blank
    case .start: .start
    case .stop: .stop
    case .startStop: .startStop
    case .adjust: .adjust
    case .resetClock: .resetClock
    case .horn: .horn
    case .pair: .pair
    case .nextPeriod: .nextPeriod
    case .timeout: .timeout
    case .penalty: .penalty
    }
  }

  /// The highest brightness level; 0 is the dimmest that still shows.
  public static let maximumBrightness = 15

  public var description: String {
    switch self {
    case .digit(let digit): "digit \(digit)"
    case .backspace: "backspace"
    case .commit: "commit"
    case .cancel: "cancel"
    case .next: "next"
    case .previous: "previous"
    case .select(let field): "select \(field)"
    case .add(let field?, let amount): "add \(field) \(Self.signed(amount))"
    case .add(nil, let amount): "add \(Self.signed(amount))"
    case .set(let field, let value): "set \(field) \(value)"
    case .undo: "undo"
    case .reset: "reset"
    case .brightness(.by(let steps)): "brightness \(Self.signed(steps))"
    case .brightness(.to(let level)): "brightness \(level)"
    case .blank(.toggle): "blank"
    case .blank(.on): "blank on"
    case .blank(.off): "blank off"
    case .start(let clock): Self.words("start", clock)
    case .stop(let clock): Self.words("stop", clock)
    case .startStop(let clock): Self.words("start-stop", clock)
    case .adjust(let clock, let amount): Self.words("adjust", clock, ClockText.signed(amount))
    case .resetClock(let clock, let time):
      Self.words("reset-clock", clock, time.map { ClockText.exact($0, minutes: true) })
    case .horn(let name): Self.words("horn", name)
    case .pair: "pair"
    case .nextPeriod: "next-period"
    case .timeout(let team): "timeout \(team)"
    case .penalty(let action): action.description
    }
  }

  private static func words(_ words: String?...) -> String {
    words.compactMap { $0 }.joined(separator: " ")
  }

  /// The forms an action can take, for help texts and error messages.
  public static let syntax =
    [
      "digit 0-9", "backspace", "commit", "cancel", "next", "previous", "select FIELD",
      "add [FIELD] +N|-N", "up", "down", "set FIELD VALUE", "undo", "reset",
      "brightness up|down|+N|-N|0-15", "blank [on|off]", "start [CLOCK]", "stop [CLOCK]",
      "start-stop [CLOCK]", "adjust [CLOCK] +S|-S|+S.t|-S.t", "reset-clock [CLOCK] [TIME]",
      "horn [HORN]", "pair", "next-period", "timeout TEAM",
    ] + PenaltyAction.syntax

  private static func signed(_ value: Int) -> String {
    value < 0 ? "\(value)" : "+\(value)"
  }
}

/// Why a text is not an action.
public struct ActionSyntaxError: Error, Equatable, CustomStringConvertible {
  public var description: String

  public init(description: String) {
    self.description = description
  }
}

extension Action {
  /// Parses the text form of an action, e.g. `digit 7`, `add home +1`, `blank on`.
  ///
  /// Field names are not checked against a configuration here; `fields(named:)` lists
  /// them for the caller to check.
  public init(parsing text: String) throws(ActionSyntaxError) {
    let words = text.wordsBetweenSpacesAndTabs
    guard let verb = words.first?.lowercased() else {
      throw ActionSyntaxError(description: "expected an action, found nothing")
    }
    let arguments = Array(words.dropFirst())

    func noArguments(_ action: Action) throws(ActionSyntaxError) -> Action {
      guard arguments.isEmpty else {
        throw ActionSyntaxError(description: "'\(verb)' takes no argument")
      }
      return action
    }

    switch verb {
    case "digit":
      guard arguments.count == 1, let digit = Int(arguments[0]), (0...9).contains(digit) else {
        throw ActionSyntaxError(description: "'digit' takes one digit 0-9, as in 'digit 7'")
      }
      self = .digit(digit)
    case "backspace": self = try noArguments(.backspace)
    case "commit": self = try noArguments(.commit)
    case "cancel": self = try noArguments(.cancel)
    case "next": self = try noArguments(.next)
    case "previous": self = try noArguments(.previous)
    case "up": self = try noArguments(.add(field: nil, amount: 1))
    case "down": self = try noArguments(.add(field: nil, amount: -1))
    case "undo": self = try noArguments(.undo)
    case "reset": self = try noArguments(.reset)
    case "pair": self = try noArguments(.pair)
    case "next-period": self = try noArguments(.nextPeriod)
    case "timeout":
      guard arguments.count == 1 else {
        throw ActionSyntaxError(description: "'timeout' takes a team, as in 'timeout home'")
      }
      self = .timeout(team: arguments[0])
    case "penalty":
      self = .penalty(try PenaltyAction(parsing: arguments))
    case "select":
      guard arguments.count == 1 else {
        throw ActionSyntaxError(description: "'select' takes a field name, as in 'select home'")
      }
      self = .select(field: arguments[0])
    case "add":
      let usage = "'add' takes an optional field and a signed amount, as in 'add home +1'"
      switch arguments.count {
      case 1:
        guard let amount = Self.amount(arguments[0]) else {
          throw ActionSyntaxError(description: usage)
        }
        self = .add(field: nil, amount: amount)
      case 2:
        guard let amount = Self.amount(arguments[1]) else {
          throw ActionSyntaxError(description: usage)
        }
        self = .add(field: arguments[0], amount: amount)
      default:
        throw ActionSyntaxError(description: usage)
      }
    case "set":
      guard arguments.count == 2 else {
        throw ActionSyntaxError(description: "'set' takes a field and a value, as in 'set home 12'")
      }
      self = .set(field: arguments[0], value: arguments[1])
    case "brightness":
      guard arguments.count == 1, let change = BrightnessChange(parsing: arguments[0]) else {
        throw ActionSyntaxError(description: "'brightness' takes up, down, +N, -N or a level 0-15")
      }
      self = .brightness(change)
    case "blank":
      switch arguments.map({ $0.lowercased() }) {
      case [], ["toggle"]: self = .blank(.toggle)
      case ["on"]: self = .blank(.on)
      case ["off"]: self = .blank(.off)
      default: throw ActionSyntaxError(description: "'blank' takes nothing, on, off or toggle")
      }
    case "start", "stop", "start-stop":
      guard arguments.count <= 1 else {
        throw ActionSyntaxError(
          description: "'\(verb)' takes an optional clock, as in '\(verb) game'")
      }
      let clock = arguments.first
      self =
        verb == "start"
        ? .start(clock: clock) : verb == "stop" ? .stop(clock: clock) : .startStop(clock: clock)
    case "adjust":
      let usage =
        "'adjust' takes an optional clock and a signed number of seconds with at most one "
        + "tenth digit, as in 'adjust game +1' or 'adjust -0.1'"
      guard (1...2).contains(arguments.count), let amount = ClockText.parseSigned(arguments.last!)
      else { throw ActionSyntaxError(description: usage) }
      self = .adjust(clock: arguments.count == 2 ? arguments[0] : nil, amount: amount)
    case "reset-clock":
      switch arguments.count {
      case 0:
        self = .resetClock(clock: nil, time: nil)
      case 1:
        if let time = ClockText.parse(arguments[0]) {
          self = .resetClock(clock: nil, time: time)
        } else if arguments[0].first?.isLetter == false {
          // Clock names start with a letter: this is a mistyped time (`12:75`).
          throw ActionSyntaxError(
            description: "'reset-clock' takes a clock or \(ClockText.expected), found "
              + "'\(arguments[0])'")
        } else {
          self = .resetClock(clock: arguments[0], time: nil)
        }
      case 2:
        guard let time = ClockText.parse(arguments[1]) else {
          throw ActionSyntaxError(
            description: "'reset-clock' takes \(ClockText.expected) after the clock, found "
              + "'\(arguments[1])'")
        }
        self = .resetClock(clock: arguments[0], time: time)
      default:
        throw ActionSyntaxError(
          description: "'reset-clock' takes an optional clock and an optional time, as in "
            + "'reset-clock shot 14'")
      }
    case "horn":
      guard arguments.count <= 1 else {
        throw ActionSyntaxError(description: "'horn' takes an optional horn, as in 'horn main'")
      }
      self = .horn(arguments.first)
    default:
      throw ActionSyntaxError(
        description: "unknown action '\(words[0])'; expected one of: "
          + Self.syntax.joined(separator: ", "))
    }
  }

  /// The field names this action refers to.
  public var fieldNames: [String] {
    switch self {
    case .select(let field), .set(let field, _), .add(let field?, _): [field]
    case .start(let clock?), .stop(let clock?), .startStop(let clock?), .adjust(let clock?, _),
      .resetClock(let clock?, _):
      [clock]
    default: []
    }
  }

  /// A signed amount (`+1`, `-2`, `3`) of at most a billion either way. Any number of
  /// digits is refused past the limit, `Int.min` included (whose `abs` would trap).
  static func amount(_ text: String) -> Int? {
    guard let value = Int(text), (-1_000_000_000...1_000_000_000).contains(value) else {
      return nil
    }
    return value
  }
}

extension Action.BrightnessChange {
  /// Parses `up`, `down` (any case), a step `+N`/`-N`, or a level 0-15.
  public init?(parsing text: String) {
    let argument = text.lowercased()
    if argument == "up" {
      self = .by(1)
    } else if argument == "down" {
      self = .by(-1)
    } else if argument.hasPrefix("+") || argument.hasPrefix("-"),
      let steps = Action.amount(argument)
    {
      self = .by(steps)
    } else if let level = Int(argument), (0...Action.maximumBrightness).contains(level) {
      self = .to(level)
    } else {
      return nil
    }
  }
}
