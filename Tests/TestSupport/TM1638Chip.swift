import ProtocolDecoders

/// A TM1638 board on fake lines: the decoder is fed every level change as it happens, so
/// that it answers a key read bit by bit, as the chip would.
public final class TM1638Chip {
  /// The chip, and the buttons held on its board (`decoder.pressed`).
  public var decoder = TM1638Decoder()
  private let lines: FakeGPIOLines
  /// How many of the lines' level changes the decoder has seen.
  private var seen = 0

  /// A chip at power-up on `lines` (STB, CLK, DIO), answering on DIO.
  public init(on lines: FakeGPIOLines) {
    self.lines = lines
    lines.inputModel = { [unowned self] line, _ in
      catchUp()
      return line == 2 ? decoder.dataLevel : true
    }
  }

  /// Takes the level changes not yet seen.
  public func catchUp() {
    let changes = lines.transitions
    decoder.receive(changes[seen...].map { (line: $0.line, high: $0.value) })
    seen = changes.count
  }
}
