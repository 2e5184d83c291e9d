import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// One step of a protocol bit-banged on GPIO lines. Encoders turn frames into steps;
/// `GPIOLinePlayer` carries them out on real or fake lines. Line numbers are indices
/// into the driver's line request.
public enum LineStep: Hashable, Sendable {
  /// Drive an output line.
  case set(line: Int, value: Bool)
  /// Wait, in nanoseconds (the protocol's bit delay).
  case delay(nanoseconds: Int64)
  /// Let go of a line: it becomes an input, left to its pull-up and to the device.
  case release(line: Int)
  /// Read a released line: the device must hold it low (an acknowledgement). A high
  /// level fails the frame.
  case expectLow(line: Int)
  /// Take a released line back as an output, driving `value`.
  case drive(line: Int, value: Bool)
  /// Read a released line that the device drives (a bit of a key read) and keep its
  /// level: the player hands the frame's samples back in order.
  case sample(line: Int)
}

/// Turns frames into line steps for one kind of GPIO display, remembering what the
/// display shows so that only changes are sent where the protocol allows it.
public protocol GPIOProtocol: Sendable {
  /// The lines the protocol drives, in request order, with how each is requested.
  var lines: [(role: String, settings: GPIOLineSettings)] { get }
  /// Steps that bring a display in an unknown state (after start, a power glitch or a
  /// missing acknowledgement) to showing `frame`.
  mutating func initialize(showing frame: Frame) -> [LineStep]
  /// Steps that change what the display shows to `frame`; empty when nothing changes.
  mutating func update(to frame: Frame) -> [LineStep]
  /// How often the display is fully re-initialised although nothing failed (a MAX7219
  /// that lost power comes back blank without telling); nil for never.
  var reinitializeInterval: Duration? { get }
}
