/// An I²C transfer or the opening of a bus that failed, with the bus, the chip's address
/// when one is concerned, and what the user can do about it.
///
/// Reads like `no answer at 0x70 on /dev/i2c-1 (EREMOTEIO): check the backpack's power,
/// its SDA and SCL wires and its address; i2cdetect -y 1 lists the chips that answer`.
public struct I2CError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The most data bytes one SMBus block write carries.
  public static let blockLimit = 32

  /// What failed: `open`, `check functions`, `address`, `send`, `write`.
  public var operation: String
  /// The bus device, such as `/dev/i2c-1`.
  public var bus: String
  /// The 7-bit address of the chip concerned, if any.
  public var address: UInt8?
  /// Why it failed.
  public var errno: Errno

  public init(operation: String, bus: String, address: UInt8? = nil, errno: Errno) {
    self.operation = operation
    self.bus = bus
    self.address = address
    self.errno = errno
  }

  /// The chip did not acknowledge its address: it is not there, not powered, or at
  /// another address (`ENXIO` or `EREMOTEIO`, depending on the bus controller).
  public var isNoAnswer: Bool {
    address != nil && [.noSuchDeviceOrAddress, .remoteIO].contains(errno)
  }

  /// `0x70`.
  public static func hex(_ address: UInt8) -> String {
    let digits = String(address, radix: 16)
    return "0x" + (digits.count == 1 ? "0" : "") + digits
  }

  /// The bus number of `/dev/i2c-N`, for the advice to run i2cdetect.
  private var busNumber: String {
    bus.hasPrefix("/dev/i2c-") ? String(bus.dropFirst("/dev/i2c-".count)) : "N"
  }

  public var description: String {
    if isNoAnswer, let address {
      return "no answer at \(Self.hex(address)) on \(bus) (\(errno.name ?? "\(errno)")): "
        + "check the chip's power, its SDA and SCL wires and its address jumpers; "
        + "i2cdetect -y \(busNumber) lists the chips that answer"
    }
    let subject = address.map { "\(operation) \(Self.hex($0)) on \(bus)" } ?? "\(operation) \(bus)"
    let hint: String
    switch (operation, errno) {
    case ("open", .noSuchFileOrDirectory):
      hint =
        "; the I2C bus does not exist: on a Raspberry Pi, enable I2C with "
        + "dtparam=i2c_arm=on in /boot/firmware/config.txt (or raspi-config, Interface "
        + "Options, I2C) and reboot; ls /dev/i2c-* lists the buses there are"
    case ("open", .permissionDenied):
      hint = "; the user running scoreboardd needs to be in the 'i2c' group"
    case ("address", .busy):
      hint =
        "; a kernel driver holds that address (such as a dtoverlay for the display): "
        + "remove it, as scoreboardd drives the chip itself"
    case ("check functions", .notSupported):
      hint = "; the bus cannot do SMBus send-byte and I2C-block writes, which scoreboardd needs"
    default:
      hint = ""
    }
    return "\(subject): \(errno)\(hint)"
  }
}
