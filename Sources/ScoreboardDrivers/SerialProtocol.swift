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

  /// Bytes that change what the device shows to `frame`; empty when nothing changes.
  mutating func update(to frame: Frame) -> [UInt8]

  /// How the device acknowledges what it receives; nil when it never answers.
  var acknowledgement: Acknowledgement? { get }
}
