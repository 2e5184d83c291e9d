/// How late the kernel wakes a thread that a timer is due to wake, learnt from the
/// wakeups themselves: a running estimate of the 90th percentile of their lateness.
///
/// A wait that must end on its instant (a clock's text changing) asks the timer for that
/// much earlier and waits out the rest without sleeping: on a Raspberry Pi a wakeup is
/// some 10-20 µs late, in a virtual machine 100-300 µs, so the rest costs what the
/// machine makes it cost.
struct WakeLatency {
  /// The estimate, in nanoseconds.
  private(set) var estimate: Int64 = 50_000

  /// Each wakeup later than the estimate raises it by `rise`, each other one lowers it by
  /// `fall`: it settles where one wakeup in ten is later than it.
  static let rise: Int64 = 9_000
  static let fall: Int64 = 1_000
  /// The most it assumes: a wait never spends more than this awake.
  static let limit: Int64 = 500_000

  /// Learns from one wakeup, `lateness` nanoseconds after the instant the timer was set
  /// to.
  mutating func observe(lateness: Int64) {
    if lateness > estimate {
      estimate = min(estimate + Self.rise, Self.limit)
    } else {
      estimate = max(estimate - Self.fall, 0)
    }
  }
}
