import ScoreboardCore

/// A sink for frames: a row of seven-segment cells somewhere (a terminal, a serial
/// display, LEDs driven over GPIO lines).
public protocol SegmentDisplay: AnyObject {
  /// The display's name in the configuration (`main`).
  var name: String { get }

  /// Shows `frame`, sending only what changed since the last frame shown; showing the
  /// same frame again sends nothing.
  ///
  /// - Throws: An I/O error of the display's device, with context.
  func show(_ frame: Frame) throws

  /// Leaves the display in its final state: shows `finalFrame` when given, then releases
  /// the display. Errors are ignored, as the program is ending.
  func shutdown(showing finalFrame: Frame?)
}
