import LinuxIO
import ScoreboardCore

/// What systemd hears of the daemon: READY=1, a one-line STATUS= whenever it changes,
/// RELOADING=1, STOPPING=1 and the watchdog's pings.
final class StatusReporter {
  private let notifier: SystemdNotifier
  private let logger: Logger
  /// The STATUS= text sent last.
  private(set) var reported: String?
  /// When the watchdog expects the next ping; nil without a watchdog.
  private(set) var nextWatchdogPing: Instant?

  /// A reporter through `notifier`; failures to reach systemd are logged (throttled).
  init(notifier: SystemdNotifier, logger: Logger) {
    self.notifier = notifier
    self.logger = logger
  }

  /// The status line: `home 12 away 7, 2 displays, 1 keypad (1 offline)`, and when the
  /// state file fails, `; NOT SAVED since TIME: REASON`.
  static func line(
    board: Scoreboard, displays: [ControlStatus.Device], keypads: [ControlStatus.Device],
    unsavedReason: String?
  ) -> String {
    // A clock's time is the one it was started from or stopped at: STATUS= is sent on
    // changes, not as the clock runs.
    let fields = board.spec.fields.indices.map { index in
      let field = board.spec.fields[index]
      guard let clock = board.clocks[index], let format = field.clockFormat else {
        return "\(field.name) \(board.valueText(of: index, at: .zero))"
      }
      return "\(field.name) \(format.exactText(clock.time))\(clock.isRunning ? " running" : "")"
    }
    func summary(_ devices: [ControlStatus.Device], _ noun: String) -> String {
      let offline = devices.filter { !$0.isOnline }.count
      let count = "\(devices.count) \(noun)\(devices.count == 1 ? "" : "s")"
      return offline == 0 ? count : "\(count) (\(offline) offline)"
    }
    var line =
      fields.joined(separator: " ") + ", " + summary(displays, "display") + ", "
      + summary(keypads, "keypad")
    if let unsavedReason {
      line += "; NOT SAVED: " + unsavedReason
    }
    return line
  }

  /// Whether systemd listens (`NOTIFY_SOCKET` is set): when not, a status line need not
  /// be worked out.
  var isListening: Bool {
    notifier.isEnabled
  }

  /// READY=1 with the status: start-up or a reload is done. Starts the watchdog's pings.
  func ready(_ status: String, at now: Instant) {
    reported = status
    send(["READY=1", "STATUS=" + status])
    if let interval = notifier.watchdogInterval, nextWatchdogPing == nil {
      nextWatchdogPing = now + .nanoseconds(interval / 2)
    }
  }

  /// STATUS= goes out at most once in this interval: `systemctl status` needs no more,
  /// and each one wakes systemd, which a burst of keys would otherwise do at every key.
  static let statusInterval = Duration.seconds(1)
  /// When STATUS= was last sent.
  private var lastStatusAt: Instant?

  /// When the next STATUS= may go out; nil when it may go now.
  func statusHeldUntil(at now: Instant) -> Instant? {
    guard let lastStatusAt, now < lastStatusAt + Self.statusInterval else { return nil }
    return lastStatusAt + Self.statusInterval
  }

  /// STATUS= when `status` differs from what was sent last.
  func update(_ status: String, at now: Instant) {
    guard status != reported, reported != nil else { return }
    reported = status
    lastStatusAt = now
    send(["STATUS=" + status])
  }

  /// RELOADING=1: a reload began at `now`; `ready(_:at:)` ends it.
  func reloading(at now: Instant) {
    if let error = notifier.reloading(monotonicMicroseconds: now.nanoseconds / 1000) {
      logger.log(.warning, throttle: "sd_notify", "systemd notification: \(error)")
    }
  }

  /// STOPPING=1.
  func stopping() {
    send(["STOPPING=1"])
  }

  /// WATCHDOG=1 when a ping is due, at half of the watchdog's interval; whether it was.
  func pingWatchdogIfDue(at now: Instant) -> Bool {
    guard let due = nextWatchdogPing, now >= due, let interval = notifier.watchdogInterval else {
      return false
    }
    if let error = notifier.watchdog() {
      logger.log(.warning, throttle: "sd_notify", "systemd notification: \(error)")
    }
    nextWatchdogPing = now + .nanoseconds(interval / 2)
    return true
  }

  private func send(_ assignments: [String]) {
    if let error = notifier.notify(assignments) {
      logger.log(.warning, throttle: "sd_notify", "systemd notification: \(error)")
    }
  }
}
