import ScoreboardCore

/// The display of the tests: home (2 cells), away (2 cells) and period (1 cell).
enum Fixtures {
  static let layout = DisplayLayout(name: "main", cellCount: 5)

  static let fields = [
    FieldSpec(
      name: "home", label: "HOME", display: "main", position: 0, width: 2,
      kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
    FieldSpec(
      name: "away", label: "GUEST", display: "main", position: 2, width: 2,
      kind: .number(NumberFormat(digits: 2)), defaultValue: 0),
    FieldSpec(
      name: "period", label: "PER", display: "main", position: 4, width: 1,
      kind: .list(["1", "2", "3", "4", "OT"]), defaultValue: 0),
  ]

  /// A frame showing `text` on the five cells.
  static func frame(_ text: String, brightness: Int = 8, isBlank: Bool = false) -> Frame {
    Frame(cells: try! SegmentFont.cells(for: text), brightness: brightness, isBlank: isBlank)
  }
}
