import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers

/// The running scoreboard: keypads in, the model in the middle, displays out, all on
/// one thread around one `poll()`.
///
/// The loop sleeps until a descriptor is ready or the model's next deadline (cursor
/// blink, idle timeout) comes; an idle scoreboard makes no wakeups at all.
public final class Daemon {
  private let configuration: Configuration
  private let logger: Logger
  private var board: Scoreboard
  private let loop = PollLoop()
  private let signals: SignalQueue
  private var outputs: [DisplayOutput] = []
  private var inputs: [KeypadInput] = []
  private var stopRequested = false

  /// A display driver, the part of its display's frame it shows, and the last frame it
  /// was given.
  private struct DisplayOutput {
    let layout: DisplayLayout
    /// The cells of the display this driver shows (an S7S module shows 4 of them).
    let cells: Range<Int>
    let display: any SegmentDisplay
    let onStop: DisplayConfiguration.FinalFrame
    var shown: Frame?
    /// What the poll loop watches for this display.
    var watched: Watched?
  }

  /// A keypad, the keymap its keys go through, and what the poll loop watches for it.
  private struct KeypadInput {
    let keypad: any Keypad
    let keymap: Keymap
    var watched: Watched?
    var isClosed = false
  }

  /// A descriptor the poll loop watches for a device, and for which events.
  private struct Watched: Equatable {
    var descriptor: FileDescriptor
    var events: PollLoop.Events
    var token: PollLoop.Token?

    static func == (lhs: Watched, rhs: Watched) -> Bool {
      lhs.descriptor == rhs.descriptor && lhs.events == rhs.events
    }
  }

  /// Opens every display and keypad of `configuration`.
  ///
  /// - Throws: `DaemonError` when a device cannot be opened; whatever was opened is
  ///   closed again.
  public init(configuration: Configuration, gpio: any GPIOBackend, logger: Logger)
    throws(DaemonError)
  {
    self.configuration = configuration
    self.logger = logger
    board = Scoreboard(spec: configuration.scoreboard)
    do {
      try Signal.brokenPipe.ignore()
      signals = try SignalQueue(signals: [.interrupt, .terminate, .hangUp])
    } catch {
      throw DaemonError("cannot set up signal handling: \(error)", exitCode: .software)
    }
    do {
      let now = Self.now()
      for display in configuration.displays {
        let layout = DisplayLayout(name: display.name, cellCount: display.cellCount)
        let drivers = try DriverFactory.displays(
          display, spec: configuration.scoreboard, gpio: gpio, logger: logger, at: now)
        for (cells, driver) in drivers {
          outputs.append(
            DisplayOutput(
              layout: layout, cells: cells, display: driver, onStop: display.onStop, shown: nil))
        }
      }
      for keypad in configuration.keypads {
        let driver = try DriverFactory.keypad(
          keypad, gpio: gpio, kernelDebounce: gpio.supportsKernelDebounce, logger: logger, at: now)
        inputs.append(KeypadInput(keypad: driver, keymap: keypad.keymap))
      }
    } catch {
      closeDevices(finalFrames: false)
      throw error
    }
  }

  /// Runs until SIGINT or SIGTERM, then shows the final frame and closes every device.
  public func run() throws(DaemonError) {
    defer { closeDevices(finalFrames: true) }
    loop.watch(signals.fileDescriptor, for: .readable) { [unowned self] _ in
      self.handleSignals()
    }
    logger.log(
      .info,
      "started: \(configuration.scoreboard.fields.count) fields, \(outputs.count) displays, "
        + "\(inputs.count) keypads")

    while !stopRequested {
      let now = Self.now()
      report(board.advance(to: now), source: nil)
      serviceDevicesDue(at: now)
      showFrames(at: now)
      let deadlines = [board.nextDeadline(after: now)] + watchDisplays() + watchKeypads()
      let timeout = deadlines.compactMap { $0 }.min().map { deadline in
        max(deadline - Self.now(), .zero)
      }
      do {
        try loop.runOnce(timeout: timeout)
      } catch {
        throw DaemonError("poll failed: \(error)", exitCode: .software)
      }
    }
    logger.log(.info, "stopping")
  }

  private func readKeys(from index: Int) {
    let input = inputs[index]
    let events: [KeyEvent]
    do {
      events = try input.keypad.readEvents(at: Self.now())
    } catch {
      logger.log(.warning, "keypad \(input.keypad.name): \(error); no longer reading it")
      if let token = input.watched?.token {
        loop.removeWatch(token)
      }
      inputs[index].watched = nil
      inputs[index].isClosed = true
      input.keypad.close()
      return
    }
    handle(events, keymap: input.keymap)
  }

  private func handle(_ events: [KeyEvent], keymap: Keymap) {
    for event in events {
      guard let action = keymap.action(for: event) else {
        if event.kind == .press {
          logger.log(.debug, "keypad \(event.keypad): \(event.key) is not mapped")
        }
        continue
      }
      logger.log(.debug, "keypad \(event.keypad): \(event.key) -> \(action)")
      perform(action, at: event.time, source: "keypad \(event.keypad)")
    }
  }

  private func perform(_ action: Action, at time: Instant, source: String) {
    do {
      report(try board.perform(action, at: max(time, Self.now())), source: source)
    } catch {
      logger.log(.warning, "\(source): \(action): \(error)")
    }
  }

  /// Logs what changed: committed values at info level, the rest at debug level.
  private func report(_ events: [ScoreboardEvent], source: String?) {
    let origin = source.map { " (\($0))" } ?? ""
    for event in events {
      switch event {
      case .valueChanged(let name, let from, let to):
        guard let field = configuration.scoreboard.field(named: name) else { continue }
        logger.log(.info, "\(name): \(field.text(of: from)) -> \(field.text(of: to))\(origin)")
      case .brightnessChanged(let level):
        logger.log(.info, "brightness \(level)\(origin)")
      case .blankChanged(let blanked):
        logger.log(.info, blanked ? "blanked\(origin)" : "unblanked\(origin)")
      case .resetArmed:
        logger.log(.notice, "reset armed: press reset again to reset every field\(origin)")
      case .refused(let name):
        logger.log(.debug, "\(name): key refused (outside the field's limits)")
      case .editingBegan(let name):
        logger.log(.debug, "\(name): editing")
      case .editingChanged(let name, let text):
        logger.log(.debug, "\(name): entry \"\(text)\"")
      case .editingEnded(let name, let committed):
        logger.log(.debug, "\(name): editing \(committed ? "committed" : "cancelled")")
      case .focusChanged(let name):
        logger.log(.debug, "focus on \(name)")
      }
    }
  }

  /// Gives each display its frame for `now`, when it differs from the last one shown.
  private func showFrames(at now: Instant) {
    var frames: [String: Frame] = [:]
    for index in outputs.indices {
      let layout = outputs[index].layout
      let whole = frames[layout.name] ?? Renderer.frame(of: board, display: layout, at: now)
      frames[layout.name] = whole
      let frame = whole.slice(outputs[index].cells)
      guard frame != outputs[index].shown else { continue }
      do {
        try outputs[index].display.show(frame, at: now)
        outputs[index].shown = frame
      } catch {
        logger.log(.error, "display \(outputs[index].display.name): \(error)")
      }
    }
  }

  /// Lets displays and keypads whose deadline has come go on with their work.
  private func serviceDevicesDue(at now: Instant) {
    for output in outputs {
      if let deadline = output.display.waitingFor.deadline, deadline <= now {
        output.display.service([], at: now)
      }
    }
    for input in inputs where !input.isClosed {
      if let deadline = input.keypad.waitingFor.deadline, deadline <= now {
        handle(input.keypad.service(at: now), keymap: input.keymap)
      }
    }
  }

  /// Brings the poll loop's watches in line with what each keypad waits for, and
  /// returns the keypads' deadlines.
  private func watchKeypads() -> [Instant?] {
    inputs.indices.filter { !inputs[$0].isClosed }.map { index in
      let wait = inputs[index].keypad.waitingFor
      inputs[index].watched = rewatch(inputs[index].watched, for: wait) { [unowned self] _ in
        self.readKeys(from: index)
      }
      return wait.deadline
    }
  }

  /// Brings the poll loop's watches in line with what each display waits for, and
  /// returns the displays' deadlines.
  private func watchDisplays() -> [Instant?] {
    outputs.indices.map { index in
      let display = outputs[index].display
      let wait = display.waitingFor
      outputs[index].watched = rewatch(outputs[index].watched, for: wait) { events in
        display.service(events, at: Self.now())
      }
      return wait.deadline
    }
  }

  /// Replaces the watch `current` with one for what `wait` names, when they differ.
  private func rewatch(
    _ current: Watched?, for wait: DeviceWait, handler: @escaping PollLoop.Handler
  ) -> Watched? {
    let wanted = wait.descriptor.map { Watched(descriptor: $0, events: wait.events) }
    guard wanted != current else { return current }
    if let token = current?.token {
      loop.removeWatch(token)
    }
    return wanted.map { wanted in
      var watched = wanted
      watched.token = loop.watch(wanted.descriptor, for: wanted.events, handler: handler)
      return watched
    }
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
        logger.log(
          .warning,
          "SIGHUP: reloading the configuration is not supported yet; restart to apply changes")
      default:
        break
      }
    }
  }

  private var closed = false

  /// Shows the final frames (when asked) and closes every device, once.
  private func closeDevices(finalFrames: Bool) {
    guard !closed else { return }
    closed = true
    let now = Self.now()
    let settled = board.settled
    for output in outputs {
      var frame = Renderer.frame(of: settled, display: output.layout, at: now).slice(output.cells)
      if output.onStop == .blank {
        frame.isBlank = true
      }
      output.display.shutdown(showing: finalFrames ? frame : nil)
    }
    for input in inputs where !input.isClosed {
      input.keypad.close()
    }
  }

  private static func now() -> Instant {
    Instant(nanoseconds: MonotonicClock.now())
  }
}
