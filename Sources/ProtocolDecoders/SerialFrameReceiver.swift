/// The receiving end of the serial-frame protocol, written from
/// `docs/serial-frame-protocol.md` as a microcontroller would do it: one byte at a time
/// through a state machine, the CRC computed bit by bit as the bytes arrive, the bytes
/// of the current candidate kept for a rescan. It listens to every address, as a bus
/// monitor, and records what a board would show or refuse.
public struct SerialFrameReceiver {
  /// A frame that passed every check.
  public struct Received: Equatable {
    public var address: UInt8
    public var cells: [UInt8]
    public var brightness: Int
    public var isBlank: Bool

    public init(address: UInt8, cells: [UInt8], brightness: Int, isBlank: Bool) {
      self.address = address
      self.cells = cells
      self.brightness = brightness
      self.isBlank = isBlank
    }
  }

  /// What the receiver found, in order.
  public enum Event: Equatable {
    /// A good frame; a board with this address shows it and answers ACK.
    case frame(Received)
    /// A candidate that failed the CRC or ETX check; a board with this address answers NAK.
    case failedCheck(address: UInt8)
  }

  private enum State {
    case hunting
    case address
    case count
    case cells
    case control
    case crc
    case end
  }

  private enum Outcome {
    case continuing
    case failed
  }

  public private(set) var events: [Event] = []

  /// A receiver hunting for the first start byte.
  public init() {}

  /// The good frames among the events.
  public var frames: [Received] {
    events.compactMap { event in
      if case .frame(let frame) = event { frame } else { nil }
    }
  }

  private var state = State.hunting
  /// The bytes of the candidate from its STX on, for the rescan after a failure.
  private var candidate: [UInt8] = []
  private var address: UInt8 = 0
  private var count = 0
  private var cells: [UInt8] = []
  private var control: UInt8 = 0
  private var crc: UInt8 = 0
  private var receivedCRC: UInt8 = 0

  /// CRC-8/SMBUS of one more byte, shifting bit by bit.
  public static func crc8(_ crc: UInt8, _ byte: UInt8) -> UInt8 {
    var crc = crc ^ byte
    for _ in 0..<8 {
      let carry = crc & 0x80 != 0
      crc <<= 1
      if carry {
        crc ^= 0x07
      }
    }
    return crc
  }

  /// Takes bytes as the UART delivers them.
  public mutating func receive(_ bytes: [UInt8]) {
    for byte in bytes {
      receive(byte)
    }
  }

  private mutating func receive(_ byte: UInt8) {
    var pending = [byte]
    while !pending.isEmpty {
      let next = pending.removeFirst()
      if case .failed = step(next) {
        // Resume the hunt at the byte after the failed candidate's STX.
        pending = Array(candidate.dropFirst()) + pending
        candidate = []
        state = .hunting
      }
    }
  }

  private mutating func step(_ byte: UInt8) -> Outcome {
    if state != .hunting {
      candidate.append(byte)
    }
    switch state {
    case .hunting:
      if byte == 0x02 {
        candidate = [byte]
        crc = 0
        state = .address
      }
    case .address:
      address = byte
      crc = Self.crc8(crc, byte)
      state = .count
    case .count:
      guard (1...64).contains(byte) else { return .failed }
      count = Int(byte)
      cells = []
      crc = Self.crc8(crc, byte)
      state = .cells
    case .cells:
      cells.append(byte)
      crc = Self.crc8(crc, byte)
      if cells.count == count {
        state = .control
      }
    case .control:
      control = byte
      crc = Self.crc8(crc, byte)
      state = .crc
    case .crc:
      receivedCRC = byte
      state = .end
    case .end:
      guard receivedCRC == crc, byte == 0x03 else {
        events.append(.failedCheck(address: address))
        return .failed
      }
      events.append(
        .frame(
          Received(
            address: address, cells: cells, brightness: Int(control & 0x0F),
            isBlank: control & 0x80 != 0)))
      candidate = []
      state = .hunting
    }
    return .continuing
  }
}
