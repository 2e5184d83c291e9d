import ScoreboardCore

/// Turns frames into the bytes a serial device needs, remembering what the device shows,
/// so that only changes go on the wire.
///
/// An encoder does no I/O: the serial display driver writes the bytes, and when the
/// device acknowledges, reads its answers and hands them to `acknowledgement`.
public protocol SerialProtocol: Sendable {
  /// Bytes that bring a device in an unknown state (just opened, or back after an unplug)
  /// to showing `frame`.
  mutating func initialize(showing frame: Frame) -> [UInt8]

  /// Appends to `bytes` the bytes that change what the device shows to `frame`; none
  /// when nothing changes. The driver appends to the buffer it writes from, so that a
  /// frame costs no new array.
  mutating func update(to frame: Frame, appendingTo bytes: inout [UInt8])

  /// Bytes that make a device that may have lost what it showed (its power cut and back,
  /// the port never closed) show `frame`: everything it shows, sent again as to a blank
  /// device, but nothing the device keeps by itself across a power cut, such as a
  /// setting its firmware writes to EEPROM.
  mutating func refresh(showing frame: Frame) -> [UInt8]

  /// How the device acknowledges what it receives; nil when it never answers.
  var acknowledgement: Acknowledgement? { get }
}

extension SerialProtocol {
  /// Bytes that change what the device shows to `frame`; empty when nothing changes.
  public mutating func update(to frame: Frame) -> [UInt8] {
    var bytes: [UInt8] = []
    update(to: frame, appendingTo: &bytes)
    return bytes
  }
}
