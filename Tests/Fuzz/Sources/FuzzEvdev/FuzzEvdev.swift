import FuzzSupport
import LinuxIO
import ScoreboardCore

@testable import ScoreboardDrivers

/// Bytes as an input device, or a FIFO standing in for one, delivers them: `struct
/// input_event` records of `InputEvent.recordSize` bytes, read in chunks as
/// `InputDevice.readEvents(_:)` hands them over, decoded by `EvdevKeyDecoder` and carried
/// through a keymap into a `Scoreboard` at whatever times they carry.
///
/// The first byte chooses: bit 0 ignores NumLock, bit 1 uses the records' own timestamps
/// (else the time of each read), bits 2-3 the board, bits 4-6 the records per read (1 to
/// 64, the most `InputDevice.readEvents(_:)` takes). A trailing partial record is left
/// over, as a read would keep it. The keys the
/// decoder reads as down, at the start and after `SYN_DROPPED`, are those pressed in the
/// chunk being read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let options = data[0]
  let recordSize = InputEvent.recordSize
  let records = UnsafeRawPointer(data + 1)
  let events = (0..<(size - 1) / recordSize).map {
    InputEvent(record: records + $0 * recordSize)
  }
  let logger = Logger(programName: "fuzz-evdev", minimumLevel: .error, style: .journal)
  let chunkSize = [1, 2, 3, 5, 8, 16, 32, 64][Int(options >> 4 & 7)]
  let chunks = stride(from: 0, to: events.count, by: chunkSize).map {
    events[$0..<min($0 + chunkSize, events.count)]
  }
  func pressed(in chunk: ArraySlice<InputEvent>?) -> Set<UInt16> {
    Set((chunk ?? []).filter { $0.type == .key && $0.value != 0 }.map(\.code))
  }

  var decoder = EvdevKeyDecoder(
    keypad: "fuzz", ignoreNumLock: options & 1 != 0, usesEventTimes: options & 2 != 0,
    keysDown: pressed(in: chunks.first), logger: logger)
  var board = CheckedBoard(spec: SampleBoard.spec(for: options >> 2 & 3))
  var readTime = Instant.zero
  for chunk in chunks {
    readTime = readTime + .milliseconds(7)
    decoder.beginRead()
    for record in chunk {
      decoder.decode(record, readAt: readTime) { pressed(in: chunk) }
    }
    for event in decoder.keyEvents {
      board.handle(event)
    }
    board.settle(after: readTime)
  }
  // The device goes away: every key still down is released.
  for event in decoder.releaseAll(at: readTime) {
    board.handle(event)
  }
  return 0
}
