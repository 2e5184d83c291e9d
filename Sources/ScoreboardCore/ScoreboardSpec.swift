/// Everything the model needs from the configuration: fields, displays and timings.
public struct ScoreboardSpec: Hashable, Sendable {
  /// How the cell being edited is marked.
  public enum CursorStyle: String, Hashable, Sendable, CaseIterable {
    /// The cell's segments blink.
    case blink
    /// The cell's decimal point blinks.
    case dp
    /// Nothing marks the cell.
    case none
  }

  /// The fields in focus order.
  public var fields: [FieldSpec]
  /// The displays, in configuration order.
  public var displays: [DisplayLayout]
  public var cursor: CursorStyle
  /// How long the cursor stays on, and then off.
  public var blinkInterval: Duration
  /// An edit session with no key for this long is cancelled; nil never times out.
  public var editTimeout: Duration?
  /// A second `reset` within this window resets the scoreboard.
  public var resetWindow: Duration
  /// How long a field flashes when a digit is refused.
  public var refusalFlash: Duration
  /// Brightness at first start, 0...15.
  public var brightness: Int
  /// How many committed changes `undo` can revert.
  public var undoDepth: Int
  /// The horns and buzzers the model sounds.
  public var horns: [HornSpec]
  /// Fixed texts shown on displays (`HOME`).
  public var labels: [LabelSpec]
  /// Set scoring, when the sport plays sets; nil otherwise.
  public var sets: SetRules?

  public init(
    fields: [FieldSpec], displays: [DisplayLayout], cursor: CursorStyle = .blink,
    blinkInterval: Duration = .milliseconds(500), editTimeout: Duration? = .seconds(15),
    resetWindow: Duration = .seconds(2), refusalFlash: Duration = .milliseconds(300),
    brightness: Int = 8, undoDepth: Int = 32, horns: [HornSpec] = [],
    labels: [LabelSpec] = []
  ) {
    self.fields = fields
    self.displays = displays
    self.cursor = cursor
    self.blinkInterval = blinkInterval
    self.editTimeout = editTimeout
    self.resetWindow = resetWindow
    self.refusalFlash = refusalFlash
    self.brightness = brightness
    self.undoDepth = undoDepth
    self.horns = horns
    self.labels = labels
  }

  /// The field named `name`.
  public func field(named name: String) -> FieldSpec? {
    fields.first { $0.name == name }
  }

  /// The clock that `start`, `stop` and `reset-clock` without a name mean: the first
  /// game clock that follows no other and takes over no other's cells, else the first
  /// clock.
  public var mainClock: Int? {
    fields.indices.first {
      fields[$0].takesOver == nil
        && (fields[$0].clockFormat.map { $0.role == .game && $0.follows == nil } ?? false)
    } ?? fields.indices.first { fields[$0].isClock }
  }

  /// The field that counts the periods (the first with period lengths), which
  /// `next-period` moves on.
  public var periodField: Int? {
    fields.indices.first { fields[$0].periodLengths != nil }
  }

  /// The fields shown on the display named `display`, left to right.
  public func fields(on display: String) -> [FieldSpec] {
    fields.filter { $0.display == display }.sorted { $0.position < $1.position }
  }
}

/// A display as the model sees it: a name and a row of cells.
public struct DisplayLayout: Hashable, Sendable {
  public var name: String
  /// The number of cells.
  public var cellCount: Int
  /// The cells have fourteen segments and show letters: frames carry the character of
  /// each cell (`Frame.characters`).
  public var isAlphanumeric: Bool
  /// What lights each of the display's indicator lights (a TM1638 board's LEDs); nil for
  /// a light that stays dark.
  public var indicators: [Indicator?]

  public init(
    name: String, cellCount: Int, isAlphanumeric: Bool = false, indicators: [Indicator?] = []
  ) {
    self.name = name
    self.cellCount = cellCount
    self.isAlphanumeric = isAlphanumeric
    self.indicators = indicators
  }
}
