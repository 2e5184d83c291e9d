import ScoreboardCore
import ScoreboardSettings

/// A `[horn NAME]` section: a horn, siren relay or buzzer, where it is wired, and when
/// it sounds.
public struct HornConfiguration: Hashable, Sendable {
  /// Where the horn is.
  public enum Driver: Hashable, Sendable {
    /// A GPIO line driving a relay, a transistor or a buzzer: on is the line active
    /// (high, or low with `activeLow`), off is the idle level it is requested at.
    case gpio(line: GPIOLine, activeLow: Bool)
    /// The terminal's bell, rung when the horn starts (the demo's horn).
    case terminal
  }

  public var name: String
  public var driver: Driver
  /// When the model sounds it.
  public var spec: HornSpec
  /// Whether it also clicks for every key that does something, and buzzes a refused key.
  public var clicks: Bool
  /// How long one click sounds.
  public var clickDuration: Duration
  /// The line of the section header, for messages.
  public var line: Int

  public init(
    name: String, driver: Driver, spec: HornSpec, clicks: Bool = false,
    clickDuration: Duration = .milliseconds(5), line: Int = 0
  ) {
    self.name = name
    self.driver = driver
    self.spec = spec
    self.clicks = clicks
    self.clickDuration = clickDuration
    self.line = line
  }
}
