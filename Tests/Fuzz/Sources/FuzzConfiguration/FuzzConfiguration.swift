import FuzzSupport
import ScoreboardConfig
import ScoreboardCore

/// The text of a configuration file, read as the daemon reads it (invalid UTF-8
/// replaced) and parsed.
///
/// A file with errors must describe them without a raw control character from the file.
/// A file that parses must give a scoreboard that takes every action its keymaps bind,
/// at times far apart, and displays whose templates render its frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let configuration: Configuration
  do {
    configuration = try Configuration.parse(text, path: "fuzz.conf")
  } catch {
    precondition(!error.diagnostics.isEmpty, "an error without a diagnostic")
    for diagnostic in error.diagnostics {
      TextCheck.requireNoControlCharacters(diagnostic.description)
    }
    return 0
  }
  var time = Instant.zero
  for keymap in configuration.keymaps.values.sorted(by: { $0.name < $1.name }) {
    var board = CheckedBoard(spec: configuration.scoreboard, keymap: keymap)
    let keys = keymap.bindings.keys.sorted { $0.description < $1.description }
    for key in keys {
      for kind in [KeyEvent.Kind.press, .autorepeat, .release] {
        time = time + .milliseconds(250)
        board.handle(KeyEvent(keypad: "fuzz", key: key, kind: kind, time: time))
      }
    }
    board.settle(after: time)
    render(board.board, on: configuration.displays, at: time)
  }
  var board = CheckedBoard(spec: configuration.scoreboard)
  board.perform(.next, at: .milliseconds(1000))
  board.perform(.digit(9), at: .milliseconds(2000))
  render(board.board, on: configuration.displays, at: .milliseconds(2000))
  return 0
}

/// The bytes each text display would send for the board's frames.
private func render(_ board: Scoreboard, on displays: [DisplayConfiguration], at time: Instant) {
  let frames = board.spec.displays.map { Renderer.frame(of: board, display: $0, at: time) }
  for (display, frame) in zip(displays, frames) {
    if case .serialText(let options) = display.driver {
      _ = options.template.render(frame)
    }
  }
}
