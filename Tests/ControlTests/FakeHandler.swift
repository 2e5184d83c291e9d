import ScoreboardCore
import ScoreboardDaemon

/// A handler that keeps a tiny scoreboard of its own (home, away, period), records
/// every request it is given with the client that sent it, and broadcasts value changes
/// while it handles a request, as the daemon does. With `holdsAnswers`, it keeps each
/// answer back until `releaseAnswers()`, as the daemon does while a change is saved.
final class FakeHandler: ControlHandler {
  weak var server: ControlServer?
  var holdsAnswers = false
  private var heldAnswers: [() -> Void] = []
  private(set) var requests: [(request: ControlRequest, client: String)] = []
  private(set) var fields: [ControlStatus.Field] = [
    .init(name: "home", text: "0"), .init(name: "away", text: "0"),
    .init(name: "period", text: "1"),
  ]
  private var brightness = 8
  private var isBlanked = false

  var status: ControlStatus {
    ControlStatus(
      fields: fields, brightness: brightness, isBlanked: isBlanked, editing: nil,
      displays: [.init(name: "main", isOnline: true)],
      keypads: [.init(name: "numpad", isOnline: true)], stateFile: .saved)
  }

  func handle(
    _ request: ControlRequest, client: String, answer: @escaping (ControlResponse) -> Void
  ) {
    requests.append((request, client))
    let response = respond(to: request)
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

  private func respond(to request: ControlRequest) -> ControlResponse {
    let response: ControlResponse
    switch request {
    case .status:
      return status.response
    case .get(let name):
      response = field(name).map { .ok(fields[$0].text) } ?? unknown(name)
    case .set(let name, let value):
      guard let index = field(name) else { return unknown(name) }
      fields[index].text = value
      server?.broadcast(ControlEvent.value(field: name, text: value).line)
      response = .ok("\(name) \(value)")
    case .add(let name, let amount):
      guard let index = field(name), let value = Int(fields[index].text) else {
        return unknown(name)
      }
      fields[index].text = String(value + amount)
      server?.broadcast(ControlEvent.value(field: name, text: fields[index].text).line)
      response = .ok("\(name) \(fields[index].text)")
    case .press(let key, let keypad):
      response =
        key == Key("KEY_KPENTER")
        ? .ok("commit") : .error("\(key) is not mapped on keypad \(keypad ?? "numpad")")
    case .undo, .reset, .clock, .horn:
      response = .ok("")
    case .brightness(.to(let level)):
      brightness = level
      response = .ok("brightness \(brightness)")
    case .brightness(.by(let steps)):
      brightness = min(max(brightness + steps, 0), 15)
      response = .ok("brightness \(brightness)")
    case .blank(let on):
      isBlanked = on
      response = .ok(on ? "blank on" : "blank off")
    case .watch, .help:
      response = .error("the server answers \(request) itself")
    }
    return response
  }

  private func field(_ name: String) -> Int? {
    fields.firstIndex { $0.name == name }
  }

  private func unknown(_ name: String) -> ControlResponse {
    .error("no field named '\(name)' (fields: home, away, period)")
  }
}
