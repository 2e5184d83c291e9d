import ScoreboardCore

extension Daemon: ControlHandler {
  /// Carries out one request from the control socket. Committed changes are saved
  /// before the answer goes out, so an `ok` means the value survives a power cut.
  public func handle(_ request: ControlRequest, client: String) -> String {
    let now = Self.now()
    switch request {
    case .status:
      return ControlStatus(board, displays: displayStatus(), keypads: keypadStatus()).line()
    case .get(let field):
      guard let text = board.text(of: field) else {
        return "error " + ScoreboardError.unknownField(field, known: fieldNames).description
      }
      return "ok \(text)"
    case .set(let field, let value):
      return answer(.set(field: field, value: value), at: now, client: client) {
        "ok \(field) \(board.text(of: field) ?? "")"
      }
    case .add(let field, let amount):
      return answer(.add(field: field, amount: amount), at: now, client: client) {
        "ok \(field) \(board.text(of: field) ?? "")"
      }
    case .press(let key, let keypadName):
      guard
        let input = keypadName.map({ name in inputs.first { $0.configuration.name == name } })
          ?? inputs.first
      else {
        return keypadName.map { "error no keypad named '\($0)'" } ?? "error no keypad is configured"
      }
      guard let action = input.keymap.bindings[key] else {
        return "error \(key) is not mapped on keypad \(input.configuration.name)"
      }
      return answer(action, at: now, client: client) { "ok \(action)" }
    case .undo:
      return answer(.undo, at: now, client: client) { "ok" }
    case .reset:
      report(board.resetAll(at: now), source: client)
      saveStateIfNeeded()
      return "ok"
    case .brightness(let change):
      return answer(.brightness(change), at: now, client: client) {
        "ok brightness \(board.brightness)"
      }
    case .blank(let on):
      return answer(.blank(on ? .on : .off), at: now, client: client) {
        "ok blank \(board.isBlanked ? "on" : "off")"
      }
    case .watch, .help:
      return "error '\(request)' is answered by the control server"
    }
  }

  private var fieldNames: [String] {
    board.spec.fields.map(\.name)
  }

  /// Performs `action`, saves the state, and answers `success()` or the error.
  private func answer(
    _ action: Action, at now: Instant, client: String, success: () -> String
  ) -> String {
    if let error = perform(action, at: now, source: client) {
      return "error \(error)"
    }
    saveStateIfNeeded()
    return success()
  }
}
