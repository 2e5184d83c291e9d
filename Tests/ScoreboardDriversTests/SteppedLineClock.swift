import ScoreboardCore
import ScoreboardDrivers

/// A clock for the players of GPIO displays that moves only when the test moves it or a
/// player sleeps, so that what each piece of a frame does is exact.
final class SteppedLineClock: LineClock {
  /// The current time.
  var time: Instant
  /// The sleeps the player asked for, in order: when each began and until when.
  private(set) var sleeps: [(from: Instant, until: Instant)] = []
  /// How much later than asked a sleep ends, as the kernel's timer slack makes it.
  var overshoot: Duration = .zero

  /// A clock at `time`.
  init(at time: Instant = .milliseconds(1_000)) {
    self.time = time
  }

  func now() -> Instant {
    time
  }

  func sleep(until deadline: Instant) {
    sleeps.append((time, deadline))
    time = max(time, deadline + overshoot)
  }
}
