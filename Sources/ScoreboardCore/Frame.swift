/// What one display should show at one moment: a segment pattern per cell, the
/// brightness, and whether it is blanked. Drivers map brightness to their own scale.
public struct Frame: Hashable, Sendable {
  /// One entry per cell, left to right.
  public var cells: [Segments]
  /// 0 (dimmest that still shows) ... 15 (brightest).
  public var brightness: Int
  /// The display is switched dark (the cells keep their content).
  public var isBlank: Bool
  /// The cells followed by a lit colon (a clock's `12:34` has one after cell 1), in
  /// increasing order; nil when no clock is on the display. The cell before a colon also
  /// has its decimal point lit, for displays that have no colon: a display with a colon
  /// there shows the colon instead of that point.
  public var colons: [Int]? {
    get { showsClock ? colonCells : nil }
    set {
      showsClock = newValue != nil
      colonCells = newValue ?? []
    }
  }
  /// `colons` as stored: an optional array is copied through the runtime's generic code
  /// (its type's value witnesses), an array and a flag with a retain. `colonCells` is
  /// empty when `showsClock` is false, so that equal frames are stored alike.
  private var colonCells: [Int]
  private var showsClock: Bool
  /// What few displays use (texts, letters, indicator lights), in one shared box; nil
  /// when a frame has none of it. A frame of segments alone, as most are, is copied from
  /// round to round with two references, not five.
  private var extras: Extras?

  /// What each field on the display shows, as text, by field name: a number with its
  /// placeholder cells, a list value as written (`OT`, where the cells read `0t`), a
  /// space for each cell the blinking cursor or a refusal flash has dark. For displays
  /// that take text rather than segments.
  public var fieldTexts: [String: String] {
    get { extras?.fieldTexts ?? [:] }
    set { extras = .boxing(fieldTexts: newValue, characters: characters, indicators: indicators) }
  }
  /// The character each cell shows, for displays whose cells show letters (fourteen
  /// segments); nil for the others. A cell's decimal point is in `cells`. The characters
  /// are those of `AlphanumericFont`; a dark cell is a space.
  public var characters: [Character]? {
    get { extras?.characters }
    set { extras = .boxing(fieldTexts: fieldTexts, characters: newValue, indicators: indicators) }
  }
  /// Whether each indicator light of the display is lit (`DisplayLayout.indicators`).
  public var indicators: [Bool] {
    get { extras?.indicators ?? [] }
    set { extras = .boxing(fieldTexts: fieldTexts, characters: characters, indicators: newValue) }
  }

  public init(
    cells: [Segments], brightness: Int, isBlank: Bool = false, fieldTexts: [String: String] = [:],
    colons: [Int]? = nil, characters: [Character]? = nil, indicators: [Bool] = []
  ) {
    self.cells = cells
    self.brightness = brightness
    self.isBlank = isBlank
    colonCells = colons ?? []
    showsClock = colons != nil
    extras = Extras.boxing(fieldTexts: fieldTexts, characters: characters, indicators: indicators)
  }

  /// The members few displays use, shared by the copies of a frame; made anew when one
  /// of them changes.
  private final class Extras: Hashable, Sendable {
    let fieldTexts: [String: String]
    let characters: [Character]?
    let indicators: [Bool]

    private init(fieldTexts: [String: String], characters: [Character]?, indicators: [Bool]) {
      self.fieldTexts = fieldTexts
      self.characters = characters
      self.indicators = indicators
    }

    /// The box for these members; nil when they are all empty (as a frame of segments
    /// alone has them), checked before anything is allocated.
    static func boxing(
      fieldTexts: [String: String], characters: [Character]?, indicators: [Bool]
    ) -> Extras? {
      guard !fieldTexts.isEmpty || characters != nil || !indicators.isEmpty else { return nil }
      return Extras(fieldTexts: fieldTexts, characters: characters, indicators: indicators)
    }

    static func == (lhs: Extras, rhs: Extras) -> Bool {
      lhs === rhs
        || (lhs.fieldTexts == rhs.fieldTexts && lhs.characters == rhs.characters
          && lhs.indicators == rhs.indicators)
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(fieldTexts)
      hasher.combine(characters)
      hasher.combine(indicators)
    }
  }

  /// A dark frame of `cellCount` cells.
  public static func blank(cellCount: Int, brightness: Int = 0) -> Frame {
    Frame(cells: [Segments].cells(.blank, count: cellCount), brightness: brightness, isBlank: true)
  }

  /// The part of the frame for `cells` (a module that shows some cells of a display).
  /// Cells beyond the frame are blank.
  public func slice(_ cells: Range<Int>) -> Frame {
    guard cells != self.cells.indices else { return self }
    var frame = self
    frame.cells = cells.map { self.cells.indices.contains($0) ? self.cells[$0] : .blank }
    frame.colons = colons.map { colons in
      colons.filter { cells.contains($0) }.map { $0 - cells.lowerBound }
    }
    frame.characters = characters.map { characters in
      cells.map { characters.indices.contains($0) ? characters[$0] : " " }
    }
    return frame
  }

  /// The cells as text, as the font reads them (`12 7`), or their characters where the
  /// frame has them (`HOME`).
  public var text: String {
    guard let characters else { return SegmentFont.text(for: cells) }
    var text = ""
    for (character, cell) in zip(characters, cells) {
      text.append(character)
      if cell.contains(.dp) {
        text.append(".")
      }
    }
    return text
  }
}
