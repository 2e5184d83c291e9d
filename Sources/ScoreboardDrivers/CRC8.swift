/// CRC-8/SMBUS: polynomial 0x07, initial value 0x00, no reflection, no final XOR (check
/// value 0xF4 for the ASCII bytes `123456789`).
enum CRC8 {
  /// The CRC of each byte value, so that a byte costs one lookup rather than 8 shifts.
  private static let table: [UInt8] = (0...255).map { value in
    var crc = UInt8(value)
    for _ in 0..<8 {
      crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1
    }
    return crc
  }

  /// The CRC of `bytes`.
  static func checksum(_ bytes: some Sequence<UInt8>) -> UInt8 {
    bytes.reduce(0) { crc, byte in table[Int(crc ^ byte)] }
  }
}
