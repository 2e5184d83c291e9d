import ScoreboardCore

/// Our binary protocol for microcontroller boards that drive the digits themselves
/// (`driver = serial-frame`), specified in `docs/serial-frame-protocol.md`.
///
/// Every message is a complete frame:
/// `0x02` | address | cell count N | N segment bytes | control | CRC-8 | `0x03`,
/// where the control byte holds the brightness 0-15 in bits 0-3 and the blank flag in
/// bit 7, and the CRC-8/SMBUS covers address to control. A board keeps no partial state,
/// so an update resends the whole frame, and only when it differs from the last one sent.
/// When acknowledgement is on, the board answers each frame for its address with
/// `0x06 ADDRESS` or `0x15 ADDRESS`.
public struct ControllerFrameProtocol: SerialProtocol {
  /// The cell counts a frame can carry.
  public static let cellCounts: ClosedRange<Int> = 1...64
  /// The addresses a board can have; `0xFF` is reserved.
  public static let addresses: ClosedRange<UInt8> = 0x00...0xFE

  private enum Marker {
    static let start: UInt8 = 0x02
    static let end: UInt8 = 0x03
  }

  /// The blank flag of the control byte, above the brightness in bits 0-3.
  private static let blankFlag: UInt8 = 0x80

  /// The board's address.
  public let address: UInt8
  /// How the board answers; nil when it never does.
  public let acknowledgement: Acknowledgement?

  private var lastSent: [UInt8]?

  /// An encoder for the board at `address` (0x00-0xFE) that answers as `acknowledgement`
  /// says, which must then name the same address, or never answers when it is nil.
  public init(address: UInt8, acknowledgement: Acknowledgement?) {
    precondition(Self.addresses.contains(address), "address 0xFF is reserved")
    precondition(
      acknowledgement.map { $0.address == address } ?? true,
      "the acknowledgement must be for the board's address")
    self.address = address
    self.acknowledgement = acknowledgement
  }

  /// The complete frame for `frame`.
  public mutating func initialize(showing frame: Frame) -> [UInt8] {
    let bytes = encode(frame)
    lastSent = bytes
    return bytes
  }

  /// The complete frame for `frame`: a board keeps nothing across a power cut.
  public mutating func refresh(showing frame: Frame) -> [UInt8] {
    initialize(showing: frame)
  }

  /// The complete frame for `frame` when it differs from the last one sent; empty
  /// otherwise.
  public mutating func update(to frame: Frame, appendingTo bytes: inout [UInt8]) {
    let encoded = encode(frame)
    guard encoded != lastSent else { return }
    lastSent = encoded
    bytes += encoded
  }

  /// The bytes of one frame; the brightness is clamped to 0-15.
  ///
  /// - Precondition: The frame has 1-64 cells (the configuration checks display sizes).
  private func encode(_ frame: Frame) -> [UInt8] {
    precondition(
      Self.cellCounts.contains(frame.cells.count),
      "a serial-frame display has 1-64 cells, not \(frame.cells.count)")
    let brightness = UInt8(min(max(frame.brightness, 0), 15))
    let control = brightness | (frame.isBlank ? Self.blankFlag : 0)
    let checked =
      [address, UInt8(frame.cells.count)] + frame.cells.map(\.rawValue) + [control]
    return [Marker.start] + checked + [CRC8.checksum(checked), Marker.end]
  }
}
