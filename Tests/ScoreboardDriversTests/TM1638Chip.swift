import ProtocolDecoders
import TestSupport

/// A TM1638 board on fake lines: the decoder is fed every level change as it happens, so
/// that it answers a key read bit by bit, as the chip would.
final class TM1638Chip {
  var decoder = TM1638Decoder()
  private let capture: LineCapture

  /// A chip at power-up on `lines`, answering on DIO (line 2).
  init(on lines: FakeGPIOLines) {
    capture = LineCapture(lines)
    lines.inputModel = { [unowned self] line, _ in
      catchUp()
      return line == 2 ? decoder.dataLevel : true
    }
  }

  /// Takes the level changes not yet seen.
  func catchUp() {
    decoder.receive(capture.newChanges())
  }
}
