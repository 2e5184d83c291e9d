import FuzzSupport
import ScoreboardCore
import ScoreboardWeb

/// What a web request brings that our own code parses: the first byte chooses what the
/// rest is taken for (a form body, a Cookie header, a Host and Origin pair, a command
/// body, a paired-devices file). Nothing may crash; a form read must hold no NUL and
/// no value beyond its limit; errors must quote no control character.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let kind = bytes.first else { return 0 }
  let payload = Array(bytes.dropFirst())
  let text = String(decoding: payload, as: UTF8.self)
  switch kind % 5 {
  case 0:
    do {
      for field in try FormFields.parse(payload) {
        precondition(!field.value.utf8.contains(0) && !field.name.utf8.contains(0))
        precondition(field.value.utf8.count <= FormFields.valueLimit)
      }
    } catch {
      TextCheck.requireNoControlCharacters("\(error)")
    }
  case 1:
    if let value = FormFields.cookie("scoreboardd_device", in: text) {
      _ = PairedDevices().device(withToken: value)
      _ = Hex.bytes(value)
    }
  case 2:
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let refusal = RequestOrigin.refusal(
      host: String(parts[0]), origin: parts.count > 1 ? String(parts[1]) : nil,
      names: ["localhost", "scoreboard"])
    if let refusal {
      TextCheck.requireNoControlCharacters(refusal)
    }
  case 3:
    // A command body: one line of the control protocol, as POST /api/command takes it.
    do {
      let request = try ControlRequest(parsing: text)
      precondition((try? ControlRequest(parsing: request.description)) == request)
    } catch {
      TextCheck.requireNoControlCharacters("\(error)")
    }
  default:
    do {
      let devices = try PairedDevices(parsing: text)
      precondition((try? PairedDevices(parsing: devices.text)) == devices, "the file reads back")
    } catch {
      TextCheck.requireNoControlCharacters("\(error)")
    }
  }
  return 0
}
