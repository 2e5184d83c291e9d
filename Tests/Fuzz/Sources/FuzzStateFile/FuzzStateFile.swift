import FuzzSupport
import ScoreboardCore

@testable import LinuxIO

/// The bytes of a state file, read as the daemon reads them at start: a file of two
/// slots gives its newest whole version (`TwoSlotFile`), which written into a slot again
/// must read back the same; any other file is the text alone. The text (invalid UTF-8
/// replaced) is restored onto a board, and written and read again: a state that parses
/// must encode to a text that parses back to it, and the error about one that does not
/// must quote no control character.
///
/// The first byte also chooses the board.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if TwoSlotFile.isMadeOfSlots(bytes) {
    guard let newest = TwoSlotFile.newestVersion(in: bytes) else { return 0 }
    let contents = Array(newest.contents)
    var again = TwoSlotFile.slot(holding: contents, sequence: newest.sequence)
    precondition(again.count <= bytes.count / 2, "a whole version fits its slot")
    again += repeatElement(UInt8(ascii: "\n"), count: bytes.count - again.count)
    let reread = TwoSlotFile.newestVersion(in: again)
    precondition(
      reread.map { Array($0.contents) } == contents && reread?.sequence == newest.sequence,
      "a version written into a slot again reads back")
    bytes = contents
  }
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
