import FuzzSupport
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers

/// Bytes that arrive from a serial port or a terminal, in reads of 1-256 bytes.
///
/// The same bytes go to a serial-frame receiver (a board listening on the line), to a
/// serial-frame display waiting for the answers of the board at one address (which keeps
/// what it has not matched yet, as `SerialDisplay` does), and to a terminal keypad whose
/// keys drive a board. A frame received must read the same when encoded again.
///
/// The first byte is the display's board address, the second the size of each read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 2 else { return 0 }
  let address = data[0]
  let readSize = Int(data[1]) + 1
  let stream = UnsafeBufferPointer(start: data + 2, count: size - 2)
  let acknowledgement = Acknowledgement(timeout: .milliseconds(50), retries: 2, address: address)
  var receiver = SerialFrameReceiver()
  var unmatched: [UInt8] = []
  var terminal = TerminalKeyDecoder()
  var board = CheckedBoard(spec: SampleBoard.spec(for: address))
  var time = Instant.zero
  for start in stride(from: 0, to: stream.count, by: readSize) {
    let chunk = Array(stream[start..<min(start + readSize, stream.count)])
    time = time + .milliseconds(30)
    receiver.receive(chunk)

    unmatched += chunk
    while let (_, consumed) = acknowledgement.scan(unmatched) {
      precondition((2...unmatched.count).contains(consumed), "an answer of \(consumed) bytes")
      precondition(unmatched[consumed - 1] == address, "an answer for another address")
      unmatched.removeFirst(consumed)
    }
    if unmatched.count > 1024 {
      unmatched.removeFirst(unmatched.count - 16)
    }

    for key in terminal.decode(chunk) {
      board.handle(KeyEvent(keypad: "terminal", key: key, kind: .press, time: time))
    }
    board.settle(after: time)
  }
  for frame in receiver.frames {
    precondition(ControllerFrameProtocol.cellCounts.contains(frame.cells.count))
    precondition((0...15).contains(frame.brightness))
    guard ControllerFrameProtocol.addresses.contains(frame.address) else { continue }
    var encoder = ControllerFrameProtocol(address: frame.address, acknowledgement: nil)
    let bytes = encoder.initialize(
      showing: Frame(
        cells: frame.cells.map(Segments.init(rawValue:)), brightness: frame.brightness,
        isBlank: frame.isBlank))
    var again = SerialFrameReceiver()
    again.receive(bytes)
    precondition(again.events == [.frame(frame)], "a frame that reads differently encoded")
  }
  return 0
}
