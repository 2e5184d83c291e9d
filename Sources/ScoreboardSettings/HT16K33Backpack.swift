/// The kind of Adafruit HT16K33 backpack: which digits it has and where they are in the
/// chip's display RAM (`segments`).
public enum HT16K33Backpack: Hashable, Sendable {
  /// Four seven-segment digits and a colon (0.56" and 1.2" backpacks): digits at RAM
  /// bytes 0, 2, 6 and 8, the colon at byte 4 (`segments = 7`).
  case sevenSegment
  /// Four fourteen-segment alphanumeric digits, one 16-bit word each (`segments = 14`).
  case alphanumeric

  /// The digits of one backpack.
  public static let digitsPerBackpack = 4
}
