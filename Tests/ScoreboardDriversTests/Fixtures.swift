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

  /// The same display with a game clock instead of the scores: clock (4 cells, `12:34`)
  /// and period (1 cell). A number field stands in for the clock, which only its cells
  /// concern here.
  static let clockFields = [
    FieldSpec(
      name: "clock", label: "TIME", display: "main", position: 0, width: 4,
      kind: .number(NumberFormat(digits: 4)), defaultValue: 0),
    fields[2],
  ]

  /// A frame showing `text` on the five cells, with a lit colon after each cell of
  /// `colons` (a clock's; nil when no clock is on the display).
  static func frame(
    _ text: String, brightness: Int = 8, isBlank: Bool = false, colons: [Int]? = nil
  ) -> Frame {
    Frame(
      cells: try! SegmentFont.cells(for: text), brightness: brightness, isBlank: isBlank,
      colons: colons)
  }
}
