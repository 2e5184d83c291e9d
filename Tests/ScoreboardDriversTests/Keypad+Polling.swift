import LinuxIO
import ScoreboardCore
import ScoreboardDrivers

extension Keypad {
  /// Waits up to `timeout` for what the keypad waits for, as the daemon's poll loop
  /// does, then reads once; nil when nothing became ready.
  func readWhenReady(at time: Instant, timeout: Duration = .seconds(5)) throws -> [KeyEvent]? {
    let wait = waitingFor
    guard let descriptor = wait.descriptor else { return nil }
    let loop = PollLoop()
    loop.watch(descriptor, for: wait.events) { _ in }
    guard try loop.runOnce(timeout: timeout) > 0 else { return nil }
    return try readEvents(at: time)
  }

  /// Reads whenever the keypad is ready until `count` events came, or nothing happens
  /// for 5 s.
  func readEvents(count: Int, at time: Instant) throws -> [KeyEvent] {
    var events: [KeyEvent] = []
    while events.count < count, let more = try readWhenReady(at: time) {
      events += more
    }
    return events
  }
}
