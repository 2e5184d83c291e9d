/// An I²C bus opened for a few transfers: SMBus writes to the chips on it, each named by
/// its 7-bit address. Closed with `close()`, or when it goes away.
///
/// The real implementation is i2c-dev (`KernelI2CBackend`); tests use an in-memory fake.
public protocol I2CBus: AnyObject {
  /// The bus device, such as `/dev/i2c-1`.
  var path: String { get }

  /// Sends `byte` alone to the chip at `address` (an SMBus send-byte: a command).
  ///
  /// - Throws: `I2CError`; `I2CError.isNoAnswer` when the chip did not answer.
  func sendByte(_ byte: UInt8, to address: UInt8) throws

  /// Writes `command`, then `bytes` (at most `I2CError.blockLimit`), to the chip at
  /// `address` (an SMBus I2C-block write: a register address and the data that follows).
  ///
  /// - Throws: `I2CError`; `I2CError.isNoAnswer` when the chip did not answer.
  func writeBlock(_ bytes: [UInt8], command: UInt8, to address: UInt8) throws

  /// Closes the bus; idempotent.
  func close()
}

/// Opens I²C buses: i2c-dev, or a fake in tests.
public protocol I2CBackend: AnyObject {
  /// Opens the bus at `path` for SMBus send-byte and I2C-block writes.
  ///
  /// - Throws: `I2CError` naming the bus: it does not exist (I²C is not enabled), the
  ///   user may not open it, or it cannot do those transfers.
  func openBus(_ path: String) throws -> any I2CBus
}
