import LinuxIO

/// I²C buses that exist only in memory, for tests: every transfer to a chip that
/// answers is recorded in order; chips and buses can be taken away and brought back.
public final class FakeI2CBackend: I2CBackend {
  /// A transfer a chip received.
  public enum Transfer: Hashable, Sendable {
    /// An SMBus send-byte.
    case command(UInt8)
    /// An SMBus I2C-block write: a command byte, then data.
    case block(command: UInt8, data: [UInt8])
  }

  /// The buses that exist; opening another fails with `ENOENT`.
  public var buses: Set<String>
  /// The addresses of the chips that answer, on every bus; others fail with `EREMOTEIO`.
  public var answering: Set<UInt8>
  /// Every transfer a chip answered, in order.
  public private(set) var transfers: [(bus: String, address: UInt8, transfer: Transfer)] = []
  /// How many times a bus was opened.
  public private(set) var openings = 0
  /// How many buses are open now.
  public private(set) var openBuses = 0

  public init(buses: Set<String> = ["/dev/i2c-1"], answering: Set<UInt8>) {
    self.buses = buses
    self.answering = answering
  }

  public func openBus(_ path: String) throws -> any I2CBus {
    guard buses.contains(path) else {
      throw I2CError(operation: "open", bus: path, errno: .noSuchFileOrDirectory)
    }
    openings += 1
    openBuses += 1
    return Bus(path: path, backend: self)
  }

  /// The transfers the chip at `address` answered, in order, and forgets them.
  public func takeTransfers(to address: UInt8) -> [Transfer] {
    let taken = transfers.filter { $0.address == address }.map(\.transfer)
    transfers.removeAll { $0.address == address }
    return taken
  }

  private func record(_ transfer: Transfer, on bus: String, to address: UInt8) throws {
    guard buses.contains(bus) else {
      throw I2CError(operation: "write", bus: bus, address: address, errno: .noSuchDevice)
    }
    guard answering.contains(address) else {
      throw I2CError(operation: "write", bus: bus, address: address, errno: .remoteIO)
    }
    transfers.append((bus, address, transfer))
  }

  private final class Bus: I2CBus {
    let path: String
    private var backend: FakeI2CBackend?

    init(path: String, backend: FakeI2CBackend) {
      self.path = path
      self.backend = backend
    }

    func sendByte(_ byte: UInt8, to address: UInt8) throws {
      try backend!.record(.command(byte), on: path, to: address)
    }

    func writeBlock(_ bytes: [UInt8], command: UInt8, to address: UInt8) throws {
      precondition(bytes.count <= I2CError.blockLimit, "an SMBus block carries at most 32 bytes")
      try backend!.record(.block(command: command, data: bytes), on: path, to: address)
    }

    func close() {
      backend?.openBuses -= 1
      backend = nil
    }
  }
}
