/// A fixed text on a display (`[label NAME]`): `HOME` over a score, `PER` beside the
/// period. It has no value and no key changes it.
public struct LabelSpec: Hashable, Sendable {
  /// The label's name in the configuration.
  public var name: String
  /// The display it is shown on.
  public var display: String
  /// The index of its leftmost cell on that display, from 0.
  public var position: Int
  /// What it shows, one character per cell; a `.` lights the point of the cell before.
  public var text: String

  public init(name: String, display: String, position: Int, text: String) {
    self.name = name
    self.display = display
    self.position = position
    self.text = text
  }
}
