import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers

/// The running scoreboard: keypads and the control socket in, the model in the middle,
/// displays out, all on one thread around one `poll()`.
///
/// The loop sleeps until a descriptor is ready or the next deadline (cursor blink, idle
/// timeout, a display's pacing or retry, the systemd watchdog) comes; an idle
/// scoreboard makes no other wakeups. Committed changes are written to the state file
/// before anything else happens, and the control socket answers only after that.
public final class Daemon {
  var configuration: Configuration
  var logger: Logger
  let gpio: any GPIOBackend
  var board: Scoreboard
  let loop = PollLoop()
  private let signals: SignalQueue
  let notifier: SystemdNotifier
  var outputs: [DisplayOutput] = []
  var inputs: [KeypadInput] = []
  var control: ControlServer?
  /// A committed change has not been written to the state file yet.
  var stateNeedsSaving = false
  /// The last write of the state file failed (logged once until one succeeds).
  var stateSaveFailing = false
  /// What was last sent as systemd's STATUS=.
  var reportedStatus = ""
  /// A value or a device's state changed since STATUS= was last worked out.
  var statusMayHaveChanged = false
  /// Whether each display and keypad was online, by `display NAME`/`keypad NAME`.
  var reportedOnline: [String: Bool] = [:]
  private var nextWatchdogPing: Instant?
  private var stopRequested = false
  private var reloadRequested = false
  private var isReady = false

  /// Opens every display and keypad of `configuration`, restores the saved scores and
  /// opens the control socket.
  ///
  /// - Throws: `DaemonError` when a required device cannot be opened; whatever was
  ///   opened is closed again.
  public init(
    configuration: Configuration, gpio: any GPIOBackend, logger: Logger,
    notifier: SystemdNotifier = SystemdNotifier()
  ) throws(DaemonError) {
    self.configuration = configuration
    self.logger = logger
    self.gpio = gpio
    self.notifier = notifier
    board = Scoreboard(spec: configuration.scoreboard)
    do {
      try Signal.brokenPipe.ignore()
      signals = try SignalQueue(signals: [.interrupt, .terminate, .hangUp])
    } catch {
      throw DaemonError("cannot set up signal handling: \(error)", exitCode: .software)
    }
    restoreState()
    do {
      let now = Self.now()
      outputs = configuration.displays.flatMap { openDisplay($0, at: now) }
      for keypad in configuration.keypads {
        inputs.append(try openKeypad(keypad, at: now))
      }
    } catch {
      closeDevices(finalFrames: false)
      throw error
    }
    openControl()
  }

  /// Runs until SIGINT or SIGTERM, then shows the final frames and closes every device.
  public func run() throws(DaemonError) {
    defer {
      closeDevices(finalFrames: true)
      control?.close()
    }
    loop.watch(signals.fileDescriptor, for: .readable) { [unowned self] _ in
      self.handleSignals()
    }
    if let interval = notifier.watchdogInterval {
      nextWatchdogPing = Self.now() + .nanoseconds(interval / 2)
    }

    while !stopRequested {
      let now = Self.now()
      report(board.advance(to: now), source: nil)
      serviceDevicesDue(at: now)
      showFrames(at: now)
      saveStateIfNeeded()
      reportDevicesOnline()
      if !isReady {
        isReady = true
        reportedStatus = statusText()
        logger.log(.info, "started: " + reportedStatus)
        _ = notifier.notify(["READY=1", "STATUS=" + reportedStatus])
      }
      updateStatus()
      if reloadRequested {
        reloadRequested = false
        reload()
        continue
      }
      pingWatchdogIfDue(at: now)
      let deadlines =
        [board.nextDeadline(after: now), nextWatchdogPing] + watchDisplays() + watchKeypads()
      let timeout = deadlines.compactMap { $0 }.min().map { deadline in
        max(deadline - Self.now(), .zero)
      }
      do {
        try loop.runOnce(timeout: timeout)
      } catch {
        throw DaemonError("poll failed: \(error)", exitCode: .software)
      }
    }
    _ = notifier.stopping()
    logger.log(.info, "stopping")
    saveStateIfNeeded()
  }

  private func pingWatchdogIfDue(at now: Instant) {
    guard let due = nextWatchdogPing, now >= due, let interval = notifier.watchdogInterval else {
      return
    }
    _ = notifier.watchdog()
    nextWatchdogPing = now + .nanoseconds(interval / 2)
  }

  private func handleSignals() {
    let received: [Signal]
    do {
      received = try signals.readSignals()
    } catch {
      logger.log(.error, "reading signals: \(error)")
      return
    }
    for signal in received {
      switch signal {
      case .interrupt, .terminate:
        logger.log(.info, signal == .interrupt ? "interrupted" : "terminated")
        stopRequested = true
      case .hangUp:
        reloadRequested = true
      default:
        break
      }
    }
  }

  /// Reads the configuration file again and applies it; a file with errors is logged
  /// and the running configuration kept.
  private func reload() {
    _ = notifier.reloading()
    logger.log(.notice, "SIGHUP: reloading \(configuration.path)")
    do {
      let new = try ConfigurationFile.load(configuration.path)
      apply(new)
      logger.log(.notice, "reloaded \(configuration.path)")
    } catch {
      for line in error.message.split(separator: "\n") {
        logger.log(.error, String(line))
      }
      logger.log(.error, "reload failed; keeping the running configuration")
    }
    reportedStatus = statusText()
    _ = notifier.notify(["READY=1", "STATUS=" + reportedStatus])
  }

  static func now() -> Instant {
    Instant(nanoseconds: MonotonicClock.now())
  }
}
