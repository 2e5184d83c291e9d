import ScoreboardCore
import ScoreboardDrivers

extension Keypad {
  /// Calls `service(at:)` at each deadline the keypad asks for up to `end`, as the poll
  /// loop would, and returns the events.
  func serviceDeadlines(until end: Instant) -> [KeyEvent] {
    var events: [KeyEvent] = []
    while let deadline = waitingFor.deadline, deadline <= end {
      events += service(at: deadline)
    }
    return events
  }
}
