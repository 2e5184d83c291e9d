import ScoreboardCore

/// Reads a `[label NAME]` section: a fixed text at a position of a display.
struct LabelSectionParser {
  /// A label read without error, with where its position was given, for the checks that
  /// compare it with fields.
  struct Label {
    var spec: LabelSpec
    /// The cells it takes on its display.
    var cells: Range<Int>
    /// The section's title, for messages.
    var section: String
    /// The line of `position`.
    var positionLine: Int
  }

  /// The section's keys.
  static let keys = ["display", "position", "text"]

  /// The displays labels may be on.
  let displays: KnownDisplays

  /// The label, or nil when something in the section is wrong.
  func parse(name: String, reader: inout SectionReader) -> Label? {
    reader.reportUnknownKeys(known: Self.keys)
    reader.require("position", "text")
    let display = reader.displayName(among: displays)
    let position = reader.integer("position", in: 1...DisplaySectionParser.maximumCellCount)
    let text = reader.text("text", expected: "the text to show, such as HOME")
    guard let display, let position, let text, let layout = displays.byName[display] else {
      return nil
    }
    let width: Int
    do throws(UnshowableText) {
      width =
        layout.isAlphanumeric
        ? try AlphanumericFont.cells(for: text).count : try SegmentFont.cells(for: text).count
    } catch {
      let letters =
        layout.isAlphanumeric ? "" : "; only fourteen-segment displays show every letter"
      reader.report(error.description + letters, key: "text")
      return nil
    }
    let cells = (position - 1)..<(position - 1 + width)
    guard cells.upperBound <= layout.cellCount else {
      reader.report(
        "label needs \(Listing.cells(position...(position + width - 1))), but display "
          + "'\(display)' has \(layout.cellCount) digits", key: "position")
      return nil
    }
    return Label(
      spec: LabelSpec(name: name, display: display, position: position - 1, text: text),
      cells: cells, section: reader.section.title, positionLine: reader.line(of: "position"))
  }
}
