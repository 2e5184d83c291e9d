import ScoreboardConfig
import ScoreboardCore
import ScoreboardDaemon
import ScoreboardLogic

/// The daemon's own answers without its devices: a handler that carries out each request
/// with the real `DaemonLogic` over a small board (home, away, period; a keypad `numpad`),
/// broadcasts the events it causes as the daemon does, and records every request with the
/// client that sent it. With `holdsAnswers`, it keeps each answer back until
/// `releaseAnswers()`, as the daemon does while a change is saved.
final class ScoreboardHandler: ControlHandler {
  /// The board's configuration.
  static let configuration = """
    [display main]
    driver = terminal
    digits = 6

    [field home]
    position = 1
    digits = 2

    [field away]
    position = 3
    digits = 2

    [field period]
    position = 5
    values = 1 2 3 4 OT

    [keypad numpad]
    driver = terminal
    keymap = numpad

    [keymap numpad]
    KEY_KPENTER = commit
    KEY_KPPLUS = add home +1
    """

  weak var server: ControlServer?
  var holdsAnswers = false
  /// What the server asks between two lines of a client: while true, it answers one
  /// line a call and leaves the rest to `answerDeferred()`.
  var urgentWorkWaits = false
  private var logic: DaemonLogic
  private var heldAnswers: [() -> Void] = []
  private(set) var requests: [(request: ControlRequest, client: String)] = []
  /// The instant every request is carried out at.
  private let now = Instant.milliseconds(100_000)

  init() throws {
    let configuration = try Configuration.parse(Self.configuration, path: "control.conf")
    logic = DaemonLogic(
      board: Scoreboard(spec: configuration.scoreboard),
      keymaps: configuration.keypads.map { ($0.name, $0.keymap) })
  }

  /// The status as the daemon gives it, with the board's display and keypad online.
  var status: ControlStatus {
    ControlStatus(
      logic.board, displays: [.init(name: "main", isOnline: true)],
      keypads: [.init(name: "numpad", isOnline: true)], stateFile: .saved, at: now)
  }

  func handle(
    _ request: ControlRequest, client: String, answer: @escaping (ControlResponse) -> Void
  ) {
    requests.append((request, client))
    let response: ControlResponse
    if case .status = request {
      response = status.response
    } else {
      let reaction = logic.step(.request(request, client: client), at: now)
      for event in reaction.events.map(\.event) {
        if let controlEvent = ControlEvent(event, spec: logic.board.spec) {
          server?.broadcast(controlEvent.line)
        }
      }
      response = reaction.answer ?? .error("no answer to '\(request)'")
    }
    if holdsAnswers {
      heldAnswers.append { answer(response) }
    } else {
      answer(response)
    }
  }

  /// How many answers are held back.
  var heldAnswerCount: Int { heldAnswers.count }

  /// Gives every answer held back, in order.
  func releaseAnswers() {
    let answers = heldAnswers
    heldAnswers = []
    for answer in answers {
      answer()
    }
  }
}
