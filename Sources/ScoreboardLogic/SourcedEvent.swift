import ScoreboardCore

/// An event of the board with who caused it (`keypad numpad`, `control client 3`); the
/// source is nil for time passing. A struct, not a tuple: emptying an array of tuples
/// goes through the runtime's generic code, an array of these through their own.
public struct SourcedEvent: Sendable {
  public var event: ScoreboardEvent
  public var source: String?

  public init(_ event: ScoreboardEvent, source: String?) {
    self.event = event
    self.source = source
  }
}
