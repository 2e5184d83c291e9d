import ScoreboardCore

/// A configured display: a `[display NAME]` section.
public struct DisplayConfiguration: Hashable, Sendable {
  /// What a display shows once scoreboardd stops (`on-stop`).
  public enum FinalFrame: String, Hashable, Sendable, CaseIterable {
    /// The last frame stays on the display.
    case keep
    /// The display is blanked.
    case blank
  }

  /// The display's name, as fields refer to it (`main`).
  public var name: String
  /// The line of the section header, for messages about the display.
  public var line: Int
  /// The number of seven-segment cells (`digits`).
  public var cellCount: Int
  /// The driver that shows the display's frames, with its options.
  public var driver: DisplayDriver
  /// What the display shows once scoreboardd stops (`on-stop`).
  public var onStop: FinalFrame
  /// What lights each of the display's indicator lights (a TM1638 board's `led-1` ...
  /// `led-8`); nil for a dark one, and empty for a display without lights.
  public var indicators: [Indicator?]

  /// Creates a display configuration.
  public init(
    name: String, line: Int, cellCount: Int, driver: DisplayDriver, onStop: FinalFrame = .keep,
    indicators: [Indicator?] = []
  ) {
    self.name = name
    self.line = line
    self.cellCount = cellCount
    self.driver = driver
    self.onStop = onStop
    self.indicators = indicators
  }

  /// The display as the model sees it.
  public var layout: DisplayLayout {
    DisplayLayout(
      name: name, cellCount: cellCount, isAlphanumeric: isAlphanumeric, indicators: indicators)
  }
}

extension DisplayConfiguration {
  /// Whether the display's cells have fourteen segments and show letters.
  public var isAlphanumeric: Bool {
    if case .ht16k33(let options) = driver { options.backpack == .alphanumeric } else { false }
  }
}
