import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers

/// A display driver, the part of its display's frame it shows, and the last frame it
/// was given.
struct DisplayOutput {
  let configuration: DisplayConfiguration
  /// The cells of the display this driver shows (an S7S module shows 4 of them).
  let cells: Range<Int>
  let display: any SegmentDisplay
  var shown: Frame?
  /// What the poll loop watches for this display.
  var watched: Watched?

  var layout: DisplayLayout {
    DisplayLayout(name: configuration.name, cellCount: configuration.cellCount)
  }
}

/// A keypad, the keymap its keys go through, and what the poll loop watches for it.
struct KeypadInput {
  let configuration: KeypadConfiguration
  let keypad: any Keypad
  var keymap: Keymap { configuration.keymap }
  var watched: Watched?
  var isClosed = false
}

/// A descriptor the poll loop watches for a device, and for which events.
struct Watched: Equatable {
  var descriptor: FileDescriptor
  var events: PollLoop.Events
  var token: PollLoop.Token?

  static func == (lhs: Watched, rhs: Watched) -> Bool {
    lhs.descriptor == rhs.descriptor && lhs.events == rhs.events
  }
}

extension Daemon {
  // MARK: - Opening and closing

  func openDisplay(_ display: DisplayConfiguration, at now: Instant) -> [DisplayOutput] {
    DriverFactory.displays(
      display, spec: configuration.scoreboard, gpio: gpio, logger: logger, at: now
    ).map { cells, driver in
      DisplayOutput(configuration: display, cells: cells, display: driver)
    }
  }

  func openKeypad(_ keypad: KeypadConfiguration, at now: Instant) throws(DaemonError)
    -> KeypadInput
  {
    let driver = try DriverFactory.keypad(
      keypad, gpio: gpio, kernelDebounce: gpio.supportsKernelDebounce, logger: logger, at: now)
    return KeypadInput(configuration: keypad, keypad: driver)
  }

  /// Opens the control socket the configuration names; a socket that cannot be opened is
  /// logged, and the scoreboard runs without it.
  func openControl() {
    guard let path = configuration.service.controlSocket else { return }
    do {
      control = try ControlServer(
        path: path, maximumClients: configuration.service.maximumControlClients, loop: loop,
        handler: self, logger: logger)
    } catch {
      logger.log(.error, "control socket: \(error); scoreboardctl cannot reach this scoreboard")
    }
  }

  /// Shows the final frames (when asked) and closes every device.
  func closeDevices(finalFrames: Bool) {
    let settled = board.settled
    let now = Self.now()
    for output in outputs {
      close(output, finalFrame: finalFrames ? finalFrame(of: output, board: settled, at: now) : nil)
    }
    outputs.removeAll()
    for input in inputs {
      close(input)
    }
    inputs.removeAll()
  }

  private func finalFrame(of output: DisplayOutput, board: Scoreboard, at now: Instant) -> Frame {
    var frame = Renderer.frame(of: board, display: output.layout, at: now).slice(output.cells)
    if output.configuration.onStop == .blank {
      frame.isBlank = true
    }
    return frame
  }

  private func close(_ output: DisplayOutput, finalFrame: Frame?) {
    if let token = output.watched?.token {
      loop.removeWatch(token)
    }
    output.display.shutdown(showing: finalFrame)
  }

  private func close(_ input: KeypadInput) {
    if let token = input.watched?.token {
      loop.removeWatch(token)
    }
    if !input.isClosed {
      input.keypad.close()
    }
  }

  // MARK: - Reload

  /// Switches to `new`: the scores carry over by field name, and displays and keypads
  /// whose sections did not change keep running untouched (not even re-initialised).
  func apply(_ new: Configuration) {
    let now = Self.now()
    var newBoard = Scoreboard(spec: new.scoreboard)
    let dropped = SavedState(from: board.settled).apply(to: &newBoard)
    for name in dropped.sorted() {
      logger.log(
        .notice, "field \(name): no longer configured or its value no longer fits; dropped")
    }
    board = newBoard

    var keptOutputs: [String: [DisplayOutput]] = [:]
    for output in outputs {
      if let display = new.displays.first(where: { $0.name == output.configuration.name }),
        Self.sameDevice(display, output.configuration),
        !Self.drawsLabels(display)
          || new.scoreboard.fields(on: display.name)
            == configuration.scoreboard.fields(on: display.name)
      {
        keptOutputs[display.name, default: []].append(output)
      } else {
        close(output, finalFrame: nil)
      }
    }
    var keptInputs: [String: KeypadInput] = [:]
    for input in inputs {
      if let keypad = new.keypads.first(where: { $0.name == input.configuration.name }),
        keypad.driver == input.configuration.driver, !input.isClosed
      {
        keptInputs[keypad.name] = input
      } else {
        close(input)
      }
    }

    let oldService = configuration.service
    configuration = new
    logger.minimumLevel = new.service.logLevel
    outputs = new.displays.flatMap { display in
      keptOutputs[display.name].map { kept in
        kept.map {
          DisplayOutput(
            configuration: display, cells: $0.cells, display: $0.display, watched: $0.watched)
        }
      } ?? openDisplay(display, at: now)
    }
    inputs = new.keypads.compactMap { keypad in
      if let kept = keptInputs[keypad.name] {
        return KeypadInput(configuration: keypad, keypad: kept.keypad, watched: kept.watched)
      }
      do {
        return try openKeypad(keypad, at: now)
      } catch {
        logger.log(.error, "\(error); running without it")
        return nil
      }
    }
    if new.service.controlSocket != oldService.controlSocket
      || new.service.maximumControlClients != oldService.maximumControlClients
    {
      control?.close()
      control = nil
      openControl()
    }
    stateNeedsSaving = true
  }

  /// Whether a display draws the fields' labels and boundaries, so that it must be
  /// opened anew when the fields on it change.
  private static func drawsLabels(_ display: DisplayConfiguration) -> Bool {
    if case .terminal = display.driver { true } else { false }
  }

  /// Whether two display sections drive the same device the same way (the section's line
  /// in the file may differ).
  private static func sameDevice(_ lhs: DisplayConfiguration, _ rhs: DisplayConfiguration) -> Bool {
    var lhs = lhs
    lhs.line = rhs.line
    return lhs == rhs
  }

  // MARK: - Frames and keys

  /// Gives each display its frame for `now`, when it differs from the last one shown.
  func showFrames(at now: Instant) {
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
  func serviceDevicesDue(at now: Instant) {
    for output in outputs {
      if let deadline = output.display.waitingFor.deadline, deadline <= now {
        output.display.service([], at: now)
      }
    }
    for input in inputs where !input.isClosed {
      if let deadline = input.keypad.waitingFor.deadline, deadline <= now {
        handle(input.keypad.service(at: now), from: input)
      }
    }
  }

  private func readKeys(from keypad: any Keypad) {
    guard let index = inputs.firstIndex(where: { $0.keypad === keypad }) else { return }
    let input = inputs[index]
    let events: [KeyEvent]
    do {
      events = try keypad.readEvents(at: Self.now())
    } catch {
      logger.log(.warning, "keypad \(keypad.name): \(error); no longer reading it")
      if let token = input.watched?.token {
        loop.removeWatch(token)
      }
      inputs[index].watched = nil
      inputs[index].isClosed = true
      keypad.close()
      return
    }
    handle(events, from: input)
  }

  /// Carries out the actions of a batch of key events, then saves the state once.
  private func handle(_ events: [KeyEvent], from input: KeypadInput) {
    for event in events {
      guard let action = input.keymap.action(for: event) else {
        if event.kind == .press {
          logger.log(.debug, "keypad \(event.keypad): \(event.key) is not mapped")
        }
        continue
      }
      logger.log(.debug, "keypad \(event.keypad): \(event.key) -> \(action)")
      _ = perform(action, at: event.time, source: "keypad \(event.keypad)")
    }
    saveStateIfNeeded()
  }

  // MARK: - Watches

  /// Brings the poll loop's watches in line with what each keypad waits for, and
  /// returns the keypads' deadlines.
  func watchKeypads() -> [Instant?] {
    inputs.indices.filter { !inputs[$0].isClosed }.map { index in
      let keypad = inputs[index].keypad
      let wait = keypad.waitingFor
      inputs[index].watched = rewatch(inputs[index].watched, for: wait) { [unowned self] _ in
        self.readKeys(from: keypad)
      }
      return wait.deadline
    }
  }

  /// Brings the poll loop's watches in line with what each display waits for, and
  /// returns the displays' deadlines.
  func watchDisplays() -> [Instant?] {
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
}
