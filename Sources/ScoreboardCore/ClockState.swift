/// Where a clock stands: the time on it at one instant, and whether it runs since then.
///
/// The time shown is a pure function of this state and the present instant (the time at
/// the start minus, or plus, what has passed since), never a count of ticks, so a clock
/// cannot drift from the monotonic clock it is read against.
public struct ClockState: Hashable, Sendable {
  /// The time on the clock when it was started (while it runs), or where it stopped.
  public var time: Duration
  /// When it was last started; nil while stopped.
  public var startedAt: Instant?

  /// A stopped clock showing `time`.
  public init(time: Duration, startedAt: Instant? = nil) {
    self.time = time
    self.startedAt = startedAt
  }

  public var isRunning: Bool { startedAt != nil }

  /// The time on the clock at `now`, never past its end (zero counting down, the length
  /// counting up). Before the start instant, the time at the start.
  public func time(at now: Instant, format: ClockFormat) -> Duration {
    guard let startedAt else { return time }
    let elapsed = max(now - startedAt, .zero)
    switch format.direction {
    case .down:
      return time > elapsed ? time - elapsed : .zero
    case .up:
      return min(time + elapsed, format.length)
    }
  }

  /// When a running clock reaches its end; nil while stopped.
  public func endInstant(format: ClockFormat) -> Instant? {
    guard let startedAt else { return nil }
    switch format.direction {
    case .down: return startedAt + time
    case .up: return startedAt + max(format.length - time, .zero)
    }
  }

  /// The first instant after `now` at which what a running clock shows changes (the next
  /// second or tenth, or the switch to tenths); nil while stopped or at its end.
  public func nextTextChange(after now: Instant, format: ClockFormat) -> Instant? {
    guard let startedAt, let end = endInstant(format: format), now < end else { return nil }
    let current = max(time(at: now, format: format).nanoseconds, 0)
    let shown = format.shownTime(.nanoseconds(current))
    let step = shown.tenths ? ClockText.tenth : ClockText.second
    // The clock's own time at which the text changes next, as a time on the clock.
    var target: Int64
    switch format.direction {
    case .down:
      // Shown rounded up: the text changes when the time reaches the next multiple below.
      target = (current - 1) / step * step
      if !shown.tenths {
        // The switch to tenths: the first time whose tenths are shown.
        let threshold = format.tenthsBelow.nanoseconds - ClockText.tenth
        if threshold >= 0, threshold < current {
          target = max(target, threshold)
        }
      }
      target = max(target, 0)
      let instant = now + .nanoseconds(current - target)
      return max(min(instant, end), startAfter(now, startedAt))
    case .up:
      // Shown rounded down; counting up, tenths are only ever left behind, at the
      // threshold, which is a whole tenth and so a step of its own.
      target = min((current / step + 1) * step, format.length.nanoseconds)
      let instant = now + .nanoseconds(target - current)
      return max(min(instant, end), startAfter(now, startedAt))
    }
  }

  /// The instant a change can come at the earliest: after `now`, and not before the
  /// clock starts.
  private func startAfter(_ now: Instant, _ startedAt: Instant) -> Instant {
    max(now + .nanoseconds(1), startedAt)
  }
}
