import CScoreboardLinux

/// I²C buses through the kernel's i2c-dev (`/dev/i2c-N`).
///
/// Transfers go as SMBus commands (`I2C_SMBUS`): send-byte and I2C-block write. The
/// kernel emulates them over plain I²C on controllers like the Raspberry Pi's, and
/// software chips such as i2c-stub take them too. The chip is chosen with `I2C_SLAVE`,
/// which fails with `EBUSY` when a kernel driver has bound its address.
public final class KernelI2CBackend: I2CBackend {
  public init() {}

  /// Opens `path` read-write and checks with `I2C_FUNCS` that the adapter can do the
  /// two transfers.
  public func openBus(_ path: String) throws -> any I2CBus {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, .readWrite)
    } catch let error as IOError {
      throw I2CError(operation: "open", bus: path, errno: error.errno)
    }
    var functionality: UInt = 0
    guard SystemCall.i2cFunctionality(descriptor.rawValue, &functionality) == 0 else {
      let error = I2CError(operation: "check functions", bus: path, errno: .current)
      try? descriptor.close()
      throw error
    }
    guard sbl_i2c_can_send_byte(functionality) != 0, sbl_i2c_can_write_block(functionality) != 0
    else {
      try? descriptor.close()
      throw I2CError(operation: "check functions", bus: path, errno: .notSupported)
    }
    return KernelI2CBus(path: path, descriptor: descriptor)
  }
}

/// An open i2c-dev bus; it remembers the chip addressed last, so that consecutive
/// transfers to one chip need one `I2C_SLAVE`.
final class KernelI2CBus: I2CBus {
  let path: String
  private var descriptor: FileDescriptor?
  private var addressed: UInt8?

  init(path: String, descriptor: FileDescriptor) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit {
    close()
  }

  func sendByte(_ byte: UInt8, to address: UInt8) throws {
    let descriptor = try select(address)
    try transfer("send", address) { SystemCall.i2cSendByte(descriptor, byte) }
  }

  func writeBlock(_ bytes: [UInt8], command: UInt8, to address: UInt8) throws {
    precondition(bytes.count <= I2CError.blockLimit, "an SMBus block carries at most 32 bytes")
    let descriptor = try select(address)
    try bytes.withUnsafeBufferPointer { buffer in
      try transfer("write", address) {
        SystemCall.i2cWriteBlock(descriptor, command, buffer.baseAddress, CInt(buffer.count))
      }
    }
  }

  func close() {
    try? descriptor?.close()
    descriptor = nil
  }

  /// Addresses the chip at `address`, unless it is already.
  private func select(_ address: UInt8) throws -> CInt {
    guard let descriptor else {
      throw I2CError(operation: "address", bus: path, address: address, errno: .badFileDescriptor)
    }
    if addressed != address {
      try transfer("address", address) {
        SystemCall.i2cSetAddress(descriptor.rawValue, CInt(address))
      }
      addressed = address
    }
    return descriptor.rawValue
  }

  /// Makes `call`, repeating it on `EINTR`; a failure becomes an `I2CError`.
  private func transfer(_ operation: String, _ address: UInt8, _ call: () -> CInt) throws {
    while call() == -1 {
      let error = Errno.current
      guard error == .interrupted else {
        throw I2CError(operation: operation, bus: path, address: address, errno: error)
      }
    }
  }
}
