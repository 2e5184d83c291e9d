/// What `penalty ...` asks of a team's penalties.
public enum PenaltyAction: Hashable, Sendable, CustomStringConvertible {
  /// `penalty add TEAM PLAYER LENGTH`: a penalty given now.
  case add(team: String, player: Int, length: Duration)
  /// `penalty end TEAM PLAYER`: the player's serving penalty ends now (a power-play
  /// goal); a waiting one is taken off.
  case end(team: String, player: Int)
  /// `penalty remove TEAM PLAYER`: the player's open penalty is taken off, as if never
  /// given.
  case remove(team: String, player: Int)
  /// `penalty time TEAM PLAYER M:SS`: the time left on the player's open penalty is
  /// corrected to this.
  case time(team: String, player: Int, left: Duration)

  /// The forms, for help texts and errors.
  public static let syntax = [
    "penalty add TEAM PLAYER M:SS", "penalty end TEAM PLAYER", "penalty remove TEAM PLAYER",
    "penalty time TEAM PLAYER M:SS",
  ]

  /// The team the action is for.
  public var team: String {
    switch self {
    case .add(let team, _, _), .end(let team, _), .remove(let team, _), .time(let team, _, _):
      team
    }
  }

  public var description: String {
    switch self {
    case .add(let team, let player, let length):
      // Exact: a length with a tenth (refused by the board) reads back the same.
      "penalty add \(team) \(player) "
        + ClockText.text(
          length, tenths: length.nanoseconds % ClockText.second != 0, minutes: true)
    case .end(let team, let player): "penalty end \(team) \(player)"
    case .remove(let team, let player): "penalty remove \(team) \(player)"
    case .time(let team, let player, let left):
      "penalty time \(team) \(player) "
        + ClockText.text(left, tenths: left.nanoseconds % ClockText.second != 0, minutes: true)
    }
  }

  /// Reads the words after `penalty`: `add home 17 2:00`, `end home 17`.
  public init(parsing words: [String]) throws(ActionSyntaxError) {
    let usage = "'penalty' takes " + Self.syntax.map { "'\($0)'" }.joined(separator: ", ")
    guard let verb = words.first?.lowercased() else {
      throw ActionSyntaxError(description: usage)
    }
    let arguments = Array(words.dropFirst())
    func player(_ text: String) throws(ActionSyntaxError) -> Int {
      guard text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text)
      else {
        throw ActionSyntaxError(
          description: "'\(text)' is not a player number (digits, such as 17)")
      }
      return number
    }
    switch verb {
    case "add", "time":
      guard arguments.count == 3 else {
        throw ActionSyntaxError(
          description: "'penalty \(verb)' takes a team, a player and a time, as in "
            + "'penalty \(verb) home 17 \(verb == "add" ? "2:00" : "1:30")'")
      }
      guard let time = ClockText.parse(arguments[2]) else {
        throw ActionSyntaxError(
          description: "'\(arguments[2])' is not a penalty time: expected M:SS (such as 2:00)")
      }
      let number = try player(arguments[1])
      self =
        verb == "add"
        ? .add(team: arguments[0], player: number, length: time)
        : .time(team: arguments[0], player: number, left: time)
    case "end", "remove":
      guard arguments.count == 2 else {
        throw ActionSyntaxError(
          description: "'penalty \(verb)' takes a team and a player, as in "
            + "'penalty \(verb) home 17'")
      }
      let number = try player(arguments[1])
      self =
        verb == "end"
        ? .end(team: arguments[0], player: number) : .remove(team: arguments[0], player: number)
    default:
      throw ActionSyntaxError(description: usage)
    }
  }
}
