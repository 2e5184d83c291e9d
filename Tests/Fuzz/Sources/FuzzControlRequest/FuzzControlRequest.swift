import FuzzSupport
import ScoreboardCore

/// Lines to and from the control socket.
///
/// Each line (up to `\n`, without a final `\r`) is, when valid UTF-8, a request the
/// server parses with `ControlRequest(parsing:)` and carries out on a board as the daemon
/// does; the request's canonical text must parse back to the same request. Each line,
/// decoded leniently as `scoreboardctl` decodes what it reads, is also an answer or an
/// event line for the client's parsers (`ControlResponse`, `ControlStatus`), whose
/// results must read back the same from the text they make.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  var board = CheckedBoard(spec: SampleBoard.spec(for: bytes.first ?? 0))
  var time = Instant.zero
  for var line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
    if line.last == UInt8(ascii: "\r") {
      line = line.dropLast()
    }
    time = time + .milliseconds(100)
    if let text = String(validating: line, as: UTF8.self) {
      serve(text, on: &board, at: time)
    }
    readAnswer(String(decoding: line, as: UTF8.self))
  }
  return 0
}

/// What the server and the daemon's handler do with a request line.
private func serve(_ line: String, on board: inout CheckedBoard, at time: Instant) {
  let request: ControlRequest
  do {
    request = try ControlRequest(parsing: line)
  } catch {
    _ = ControlResponse.error(error.description).line
    return
  }
  let canonical = request.description
  precondition(
    (try? ControlRequest(parsing: canonical)) == request,
    "\(line.debugDescription) is \(canonical.debugDescription), which reads differently")
  switch request {
  case .status, .watch, .help:
    break
  case .get(let field):
    _ = board.board.text(of: field)
  case .set(let field, let value):
    board.perform(.set(field: field, value: value), at: time)
  case .add(let field, let amount):
    board.perform(.add(field: field, amount: amount), at: time)
  case .press(let key, _):
    if let action = board.keymap.bindings[key] {
      board.perform(action, at: time)
    }
  case .undo:
    board.perform(.undo, at: time)
  case .nextPeriod:
    board.perform(.nextPeriod, at: time)
  case .timeout(let team):
    board.perform(.timeout(team: team), at: time)
  case .penalty(let action):
    board.perform(.penalty(action), at: time)
  case .clock(let action):
    board.perform(action, at: time)
  case .horn, .holdHorn, .releaseHorn:
    // Horns are the daemon's business at the board's instants; nothing to check here.
    break
  case .pair, .stopPairing, .devices, .unpair:
    // The web console's pairing: the daemon's, not the board's.
    break
  case .reset:
    board.resetAll(at: time)
  case .brightness(let change):
    board.perform(.brightness(change), at: time)
  case .blank(let on):
    board.perform(.blank(on ? .on : .off), at: time)
  }
  board.settle(after: time)
}

/// What scoreboardctl does with a line the daemon sent.
private func readAnswer(_ line: String) {
  if let response = try? ControlResponse(parsing: line) {
    precondition(
      (try? ControlResponse(parsing: response.line)) == response,
      "answer \(line.debugDescription) reads back differently")
  }
  if let status = try? ControlStatus(parsing: line) {
    let again = status.line()
    precondition(
      (try? ControlStatus(parsing: again)) == status,
      "status \(line.debugDescription) is \(again.debugDescription), which reads differently")
    TextCheck.requireValidJSONText(status.json())
  }
}
