/// One request of the control socket's line protocol (`docs/control-protocol.md`), such
/// as `set home 12` or `press KEY_KPENTER numpad`.
///
/// Its description is its canonical text, which parses back to the same request.
public enum ControlRequest: Hashable, Sendable, CustomStringConvertible {
  /// Everything at once, answered with a `ControlStatus` line.
  case status
  /// One field's value as text.
  case get(field: String)
  /// Set a field to a value given as text (a number, or one of a list field's values).
  case set(field: String, value: String)
  /// Add to a field: numbers are clamped to their limits, list fields step and wrap.
  case add(field: String, amount: Int)
  /// A key pressed through the keymap of a keypad; nil names the first keypad.
  case press(key: Key, keypad: String?)
  /// Revert the last committed change (or cancel an open edit).
  case undo
  /// The next period (`Action.nextPeriod`).
  case nextPeriod
  /// A timeout for a team (`Action.timeout`).
  case timeout(team: String)
  /// Give, end or take off a team's penalty (`Action.penalty`).
  case penalty(PenaltyAction)
  /// Reset every field to its default at once: unlike a keypad's reset key, one request
  /// is enough.
  case reset
  /// Change the brightness: up, down, by steps or to a level 0...15.
  case brightness(Action.BrightnessChange)
  /// Blank (true) or unblank (false) every display.
  case blank(Bool)
  /// A clock action: `start`, `stop`, `start-stop`, `adjust` or `reset-clock`, as keymaps
  /// write them.
  case clock(Action)
  /// Sound a horn (the first when nil) for its duration.
  case horn(String?)
  /// Hold a horn (the first when nil) for one more `Scoreboard.hornHoldLease`: a web
  /// page's button repeats it while pressed, so a lost connection silences the horn.
  case holdHorn(String?)
  /// Let go of a horn held with `holdHorn`.
  case releaseHorn(String?)
  /// Arm the pairing of a web console with a one-time code, for every field (nil) or
  /// for these fields only.
  case pair(fields: [String]?)
  /// Disarm the pairing: the code is no longer taken and leaves the displays.
  case stopPairing
  /// List the paired web consoles.
  case devices
  /// Forget a paired web console by name, or every one (`all`).
  case unpair(String)
  /// Stream events to this client from now on.
  case watch
  /// List the commands.
  case help

  /// The commands with their arguments, as `help` lists them.
  public static let syntax = [
    "status", "get FIELD", "set FIELD VALUE", "add FIELD +N|-N", "press KEY [KEYPAD]", "undo",
    "next-period", "timeout TEAM", "penalty add TEAM PLAYER M:SS",
    "penalty end|remove TEAM PLAYER", "penalty time TEAM PLAYER M:SS", "reset",
    "brightness 0-15|up|down|+N|-N", "blank on|off",
    "start [CLOCK]",
    "stop [CLOCK]",
    "start-stop [CLOCK]", "adjust [CLOCK] +S|-S|+S.t|-S.t", "reset-clock [CLOCK] [TIME]",
    "horn [HORN]", "horn-hold [HORN]", "horn-release [HORN]", "pair [FIELD...]", "pair off",
    "devices", "unpair NAME|all", "watch", "help",
  ]

  /// The text `help` answers with after `ok `.
  public static var helpText: String {
    "commands: " + syntax.joined(separator: ", ")
  }

  public var description: String {
    switch self {
    case .status: "status"
    case .get(let field): "get \(field)"
    case .set(let field, let value): "set \(field) \(value)"
    case .add(let field, let amount): "add \(field) \(Self.signed(amount))"
    case .press(let key, let keypad?): "press \(key) \(keypad)"
    case .press(let key, nil): "press \(key)"
    case .undo: "undo"
    case .nextPeriod: "next-period"
    case .timeout(let team): "timeout \(team)"
    case .penalty(let action): action.description
    case .reset: "reset"
    case .brightness(.by(1)): "brightness up"
    case .brightness(.by(-1)): "brightness down"
    case .brightness(.by(let steps)): "brightness \(Self.signed(steps))"
    case .brightness(.to(let level)): "brightness \(level)"
    case .blank(let on): on ? "blank on" : "blank off"
    case .clock(let action): action.description
    case .horn(let name?): "horn \(name)"
    case .horn(nil): "horn"
    case .holdHorn(let name): name.map { "horn-hold \($0)" } ?? "horn-hold"
    case .releaseHorn(let name): name.map { "horn-release \($0)" } ?? "horn-release"
    case .pair(nil): "pair"
    case .pair(let fields?): (["pair"] + fields).joined(separator: " ")
    case .stopPairing: "pair off"
    case .devices: "devices"
    case .unpair(let name): "unpair \(name)"
    case .watch: "watch"
    case .help: "help"
    }
  }

  /// Parses one request line (without its line end). Commands and the words `up`,
  /// `down`, `on` and `off` may be in any case; words are separated by spaces or tabs.
  ///
  /// Field and keypad names are not checked against a configuration here.
  /// - Throws: `ControlSyntaxError` naming what is wrong.
  public init(parsing line: String) throws(ControlSyntaxError) {
    guard !line.unicodeScalars.contains(where: Self.isControlCharacter) else {
      throw ControlSyntaxError(description: "the request contains a control character")
    }
    let words = line.wordsBetweenSpacesAndTabs
    guard let command = words.first?.lowercased() else {
      throw ControlSyntaxError(description: "expected a command, found nothing; try 'help'")
    }
    let arguments = Array(words.dropFirst())

    func expect(_ count: Int, _ usage: String) throws(ControlSyntaxError) {
      guard arguments.count == count else { throw ControlSyntaxError(description: usage) }
    }

    func noArguments(_ request: ControlRequest) throws(ControlSyntaxError) -> ControlRequest {
      try expect(0, "'\(command)' takes no argument")
      return request
    }

    switch command {
    case "status": self = try noArguments(.status)
    case "undo": self = try noArguments(.undo)
    case "next-period": self = try noArguments(.nextPeriod)
    case "timeout":
      try expect(1, "'timeout' takes a team, as in 'timeout home'")
      self = .timeout(team: arguments[0])
    case "penalty":
      do {
        self = .penalty(try PenaltyAction(parsing: arguments))
      } catch {
        throw ControlSyntaxError(description: error.description)
      }
    case "reset": self = try noArguments(.reset)
    case "watch": self = try noArguments(.watch)
    case "help": self = try noArguments(.help)
    case "get":
      try expect(1, "'get' takes a field, as in 'get home'")
      self = .get(field: arguments[0])
    case "set":
      try expect(2, "'set' takes a field and a value, as in 'set home 12'")
      self = .set(field: arguments[0], value: arguments[1])
    case "add":
      let usage = "'add' takes a field and a signed amount, as in 'add home +1'"
      try expect(2, usage)
      guard let amount = Action.amount(arguments[1]) else {
        throw ControlSyntaxError(description: usage)
      }
      self = .add(field: arguments[0], amount: amount)
    case "press":
      guard arguments.count == 1 || arguments.count == 2 else {
        throw ControlSyntaxError(
          description:
            "'press' takes a key and an optional keypad, as in 'press KEY_KPENTER numpad'")
      }
      guard let key = Key(parsing: arguments[0]) else {
        throw ControlSyntaxError(
          description: "unknown key '\(arguments[0])': expected a kernel key name such as "
            + "KEY_KPENTER or shift+KEY_TAB")
      }
      self = .press(key: key, keypad: arguments.count == 2 ? arguments[1] : nil)
    case "brightness":
      let usage = "'brightness' takes a level 0-15, up, down, +N or -N"
      try expect(1, usage)
      guard let change = Action.BrightnessChange(parsing: arguments[0]) else {
        throw ControlSyntaxError(description: usage)
      }
      self = .brightness(change)
    case "blank":
      let usage = "'blank' takes on or off"
      try expect(1, usage)
      switch arguments[0].lowercased() {
      case "on": self = .blank(true)
      case "off": self = .blank(false)
      default: throw ControlSyntaxError(description: usage)
      }
    case "start", "stop", "start-stop", "adjust", "reset-clock":
      do throws(ActionSyntaxError) {
        self = .clock(try Action(parsing: line))
      } catch {
        throw ControlSyntaxError(description: error.description)
      }
    case "horn":
      guard arguments.count <= 1 else {
        throw ControlSyntaxError(description: "'horn' takes an optional horn, as in 'horn main'")
      }
      self = .horn(arguments.first)
    case "horn-hold", "horn-release":
      guard arguments.count <= 1 else {
        throw ControlSyntaxError(
          description: "'\(command)' takes an optional horn, as in '\(command) main'")
      }
      self = command == "horn-hold" ? .holdHorn(arguments.first) : .releaseHorn(arguments.first)
    case "pair":
      if arguments.map({ $0.lowercased() }) == ["off"] {
        self = .stopPairing
      } else {
        self = .pair(fields: arguments.isEmpty ? nil : arguments)
      }
    case "devices": self = try noArguments(.devices)
    case "unpair":
      try expect(1, "'unpair' takes a device's name, or all, as in 'unpair scorer'")
      self = .unpair(arguments[0])
    default:
      throw ControlSyntaxError(description: "unknown command '\(words[0])'; try 'help'")
    }
  }

  /// C0 controls other than tab, DEL and the C1 controls: nothing a request needs, a
  /// line break in a word would smuggle a second request into the line, and an error
  /// that quotes a word must not carry a terminal's control into the journal.
  private static func isControlCharacter(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
  }

  private static func signed(_ value: Int) -> String {
    value < 0 ? "\(value)" : "+\(value)"
  }
}
