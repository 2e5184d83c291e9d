/// What the write commands of a Titan Micro LED driver (TM1637, TM1638) do, as their
/// datasheets describe them: the decoders carry out each write transaction here.
///
/// By command class (bits 7-6): `01` data command (`0x40` auto-increment, `0x44` fixed
/// address), `11` address `0xC0 + a` followed by the data bytes, `10` display control
/// (`0x80` off, `0x88 | b` on with brightness b 0-7).
struct TitanMicroRegisters {
  /// The display registers (grids); 0 at power-up.
  private(set) var registers: [UInt8]
  /// What a register is called in messages (`grid`).
  let registerName: String
  /// The display is switched on (off at power-up).
  private(set) var isDisplayOn = false
  /// The brightness 0-7 of the last display control command.
  private(set) var brightness = 0
  /// The data command in force: auto-increment (true) or fixed address.
  private var autoIncrement = true

  /// A chip of `count` registers at power-up.
  init(count: Int, registerName: String) {
    registers = [UInt8](repeating: 0, count: count)
    self.registerName = registerName
  }

  /// Carries out the bytes of one write transaction.
  ///
  /// - Returns: What the chip would not take, if anything.
  mutating func execute(_ bytes: [UInt8]) -> String? {
    guard let command = bytes.first else { return "an empty transaction" }
    let arguments = bytes.dropFirst()
    switch command >> 6 {
    case 0b01:
      guard command == 0x40 || command == 0x44, arguments.isEmpty else {
        return "unexpected data command \(bytes)"
      }
      autoIncrement = command == 0x40
    case 0b11:
      var address = Int(command & 0x3F)
      guard autoIncrement || arguments.count == 1 else {
        return "\(arguments.count) data bytes in fixed address mode"
      }
      for value in arguments {
        guard address < registers.count else {
          return "a write past \(registerName) \(registers.count - 1)"
        }
        registers[address] = value
        address += autoIncrement ? 1 : 0
      }
    case 0b10:
      guard arguments.isEmpty, command & 0x30 == 0 else {
        return "unexpected display control \(bytes)"
      }
      isDisplayOn = command & 0x08 != 0
      brightness = Int(command & 0x07)
    default:
      return "unknown command \(command)"
    }
    return nil
  }
}
