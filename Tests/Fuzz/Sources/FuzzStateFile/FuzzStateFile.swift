import FuzzSupport
import ScoreboardCore

/// The text of a state file, read as the daemon reads it at start (invalid UTF-8
/// replaced), restored onto a board, and written and read again: a state that parses
/// must encode to a text that parses back to it, and the error about one that does not
/// must quote no control character.
///
/// The first byte also chooses the board.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let state: SavedState
  do {
    state = try SavedState(parsing: String(decoding: bytes, as: UTF8.self))
  } catch {
    TextCheck.requireNoControlCharacters(error.description)
    return 0
  }
  let text = state.encoded()
  precondition(
    (try? SavedState(parsing: text)) == state, "the state re-encoded reads back: \(text)")
  var board = CheckedBoard(spec: SampleBoard.spec(for: bytes.first ?? 0))
  board.restore(state)
  board.perform(.undo, at: .zero)
  board.perform(.digit(7), at: .milliseconds(1))
  board.settle(after: .milliseconds(1))
  return 0
}
