import FuzzSupport
import ScoreboardCore
import ScoreboardMQTT

/// Bytes from the broker, as a board reads them: the first byte chooses what they are
/// taken for (a state document a mirror takes, a command, a retained discovery
/// message), the rest is the payload. Whatever JSON parses must write out as text that
/// parses back to the same value; a state document that is taken must leave a board
/// whose every check holds; errors must quote no control character.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let kind = bytes.first else { return 0 }
  let payload = Array(bytes.dropFirst())
  if let value = try? JSONValue.parse(payload) {
    precondition(
      (try? JSONValue.parse(value.jsonText)) == value,
      "JSON written out reads back: \(value.jsonText)")
  }
  switch kind % 3 {
  case 0:
    let spec = SampleBoard.spec(for: kind / 3)
    do {
      let mirrored = try StateDocument.savedState(
        from: payload, spec: spec, at: .milliseconds(5000), wallClockMilliseconds: 1_800_000_000_000
      )
      var board = CheckedBoard(spec: spec)
      board.restore(mirrored.state)
      board.perform(.digit(3), at: .milliseconds(6000))
      board.settle(after: .milliseconds(6000))
    } catch {
      TextCheck.requireNoControlCharacters("\(error)")
    }
  case 1:
    do {
      let command = try CommandMessage(
        payload: payload, correlationData: kind & 0x80 != 0 ? Array(payload.prefix(8)) : nil)
      _ = command.replyPayload("ok")
      if let request = try? ControlRequest(parsing: command.line) {
        _ = request.description
      }
    } catch {
      TextCheck.requireNoControlCharacters("\(error)")
    }
  default:
    _ = HomeAssistantDiscovery.components(inPayload: String(decoding: payload, as: UTF8.self))
  }
  return 0
}
