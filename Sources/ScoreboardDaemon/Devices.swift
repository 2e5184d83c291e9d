import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers

/// The displays and keypads of a configuration, and their watches in the daemon's loop.
///
/// Keypads report their key events through `onKeys`, as the loop finds them readable.
/// Displays are given frames with `show(_:at:)` and serviced when their deadlines come.
/// On a reload, `apply(_:)` keeps the devices whose sections did not change, untouched.
final class Devices {
  /// A display driver, the part of its display's frame it shows, and the last frame it
  /// was given.
  private struct Output {
    let configuration: DisplayConfiguration
    /// The cells of the display this driver shows (an S7S module shows 4 of them).
    let cells: Range<Int>
    let display: any SegmentDisplay
    var shown: Frame?
    var watched: Watched?

    var layout: DisplayLayout {
      DisplayLayout(name: configuration.name, cellCount: configuration.cellCount)
    }
  }

  /// A keypad and what the loop watches for it.
  private struct Input {
    let configuration: KeypadConfiguration
    let keypad: any Keypad
    var watched: Watched?
    var isClosed = false
  }

  /// A descriptor the loop watches for a device, and for which events.
  private struct Watched: Equatable {
    var descriptor: FileDescriptor
    var events: PollLoop.Events
    var token: PollLoop.Token?

    static func == (lhs: Watched, rhs: Watched) -> Bool {
      lhs.descriptor == rhs.descriptor && lhs.events == rhs.events
    }
  }

  private var configuration: Configuration
  private let gpio: any GPIOBackend
  private let logger: Logger
  private let loop: PollLoop
  private var outputs: [Output] = []
  private var inputs: [Input] = []
  /// Whether each display and keypad was online when last asked, by `display NAME` or
  /// `keypad NAME`.
  private var reportedOnline: [String: Bool] = [:]

  /// Called with the key events a keypad read.
  var onKeys: ([KeyEvent]) -> Void = { _ in }
  /// Called when a keypad or display that uses a terminal finds it hung up.
  var onTerminalHangUp: () -> Void = {}

  /// Opens every display and keypad of `configuration`.
  ///
  /// - Throws: `DaemonError` when a required keypad cannot be opened; whatever was
  ///   opened is closed again.
  init(
    _ configuration: Configuration, gpio: any GPIOBackend, logger: Logger, loop: PollLoop,
    at now: Instant
  ) throws(DaemonError) {
    self.configuration = configuration
    self.gpio = gpio
    self.logger = logger
    self.loop = loop
    outputs = configuration.displays.flatMap { openDisplay($0, at: now) }
    do {
      for keypad in configuration.keypads {
        inputs.append(try openKeypad(keypad, at: now))
      }
    } catch {
      close(finalFrames: nil)
      throw error
    }
  }

  // MARK: - Frames

  /// Gives each display its frame of `board` at `now`, when it differs from the last one.
  func show(_ board: Scoreboard, at now: Instant) {
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
        logger.log(
          .error, throttle: "display \(outputs[index].configuration.name)",
          "display \(outputs[index].display.name): \(error)")
        if outputs[index].display.terminalHungUp {
          onTerminalHangUp()
        }
      }
    }
  }

  /// Lets displays and keypads whose deadline has come go on with their work.
  func serviceDue(at now: Instant) {
    for output in outputs {
      if let deadline = output.display.waitingFor.deadline, deadline <= now {
        output.display.service([], at: now)
      }
    }
    for input in inputs where !input.isClosed {
      if let deadline = input.keypad.waitingFor.deadline, deadline <= now {
        let events = input.keypad.service(at: now)
        if !events.isEmpty {
          onKeys(events)
        }
      }
    }
  }

  /// Brings the loop's watches in line with what each device waits for, and returns the
  /// earliest of their deadlines.
  func watch() -> Instant? {
    var earliest: Instant?
    func note(_ deadline: Instant?) {
      if let deadline, earliest.map({ deadline < $0 }) ?? true {
        earliest = deadline
      }
    }
    for index in outputs.indices {
      let display = outputs[index].display
      let wait = display.waitingFor
      outputs[index].watched = rewatch(outputs[index].watched, for: wait) { events in
        display.service(events, at: Daemon.now())
      }
      note(wait.deadline)
    }
    for index in inputs.indices where !inputs[index].isClosed {
      let keypad = inputs[index].keypad
      let wait = keypad.waitingFor
      inputs[index].watched = rewatch(inputs[index].watched, for: wait) { [unowned self] _ in
        self.readKeys(from: keypad)
      }
      note(wait.deadline)
    }
    return earliest
  }

  // MARK: - Status

  /// The displays with whether all their drivers are online, in configuration order.
  var displayStatus: [ControlStatus.Device] {
    configuration.displays.map { display in
      let drivers = outputs.filter { $0.configuration.name == display.name }
      return ControlStatus.Device(
        name: display.name, isOnline: !drivers.isEmpty && drivers.allSatisfy(\.display.isOnline))
    }
  }

  /// The keypads with whether each is online, in configuration order.
  var keypadStatus: [ControlStatus.Device] {
    configuration.keypads.map { keypad in
      let input = inputs.first { $0.configuration.name == keypad.name }
      return ControlStatus.Device(
        name: keypad.name, isOnline: input.map { !$0.isClosed && $0.keypad.isOnline } ?? false)
    }
  }

  /// The displays and keypads that went offline or came back since the last call (none
  /// the first time).
  func onlineChanges() -> [ControlEvent] {
    var changes: [ControlEvent] = []
    for device in displayStatus {
      if let event = change("display", device, .display(name: device.name, online: device.isOnline))
      {
        changes.append(event)
      }
    }
    for device in keypadStatus {
      if let event = change("keypad", device, .keypad(name: device.name, online: device.isOnline)) {
        changes.append(event)
      }
    }
    return changes
  }

  private func change(_ kind: String, _ device: ControlStatus.Device, _ event: ControlEvent)
    -> ControlEvent?
  {
    let key = "\(kind) \(device.name)"
    let previous = reportedOnline.updateValue(device.isOnline, forKey: key)
    guard let previous, previous != device.isOnline else { return nil }
    return event
  }

  /// Whether a terminal that a keypad reads or a display draws on hung up.
  var terminalHungUp: Bool {
    inputs.contains { !$0.isClosed && $0.keypad.terminalHungUp }
      || outputs.contains { $0.display.terminalHungUp }
  }

  // MARK: - Opening and closing

  /// Shows the final frames of `board` (when given) and closes every device.
  func close(finalFrames board: Scoreboard?) {
    let now = Daemon.now()
    for output in outputs {
      close(output, finalFrame: board.map { finalFrame(of: output, board: $0, at: now) })
    }
    outputs.removeAll()
    for input in inputs {
      close(input)
    }
    inputs.removeAll()
  }

  /// Switches to `new`: displays and keypads whose sections did not change keep
  /// running untouched (not even re-initialised); the others are closed and opened anew.
  func apply(_ new: Configuration, at now: Instant) {
    var keptOutputs: [String: [Output]] = [:]
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
    var keptInputs: [String: Input] = [:]
    for input in inputs {
      if let keypad = new.keypads.first(where: { $0.name == input.configuration.name }),
        keypad.driver == input.configuration.driver, !input.isClosed
      {
        keptInputs[keypad.name] = input
      } else {
        close(input)
      }
    }
    configuration = new
    outputs = new.displays.flatMap { display in
      keptOutputs[display.name].map { kept in
        kept.map {
          Output(
            configuration: display, cells: $0.cells, display: $0.display, shown: $0.shown,
            watched: $0.watched)
        }
      } ?? openDisplay(display, at: now)
    }
    inputs = new.keypads.compactMap { keypad in
      if let kept = keptInputs[keypad.name] {
        return Input(configuration: keypad, keypad: kept.keypad, watched: kept.watched)
      }
      do {
        return try openKeypad(keypad, at: now)
      } catch {
        logger.error("\(error); running without it")
        return nil
      }
    }
  }

  private func openDisplay(_ display: DisplayConfiguration, at now: Instant) -> [Output] {
    DriverFactory.displays(
      display, spec: configuration.scoreboard, gpio: gpio, logger: logger, at: now
    ).map { cells, driver in
      Output(configuration: display, cells: cells, display: driver)
    }
  }

  private func openKeypad(_ keypad: KeypadConfiguration, at now: Instant) throws(DaemonError)
    -> Input
  {
    let driver = try DriverFactory.keypad(
      keypad, gpio: gpio, kernelDebounce: gpio.supportsKernelDebounce, logger: logger, at: now)
    return Input(configuration: keypad, keypad: driver)
  }

  private func finalFrame(of output: Output, board: Scoreboard, at now: Instant) -> Frame {
    var frame = Renderer.frame(of: board, display: output.layout, at: now).slice(output.cells)
    if output.configuration.onStop == .blank {
      frame.isBlank = true
    }
    return frame
  }

  private func close(_ output: Output, finalFrame: Frame?) {
    if let token = output.watched?.token {
      loop.removeWatch(token)
    }
    output.display.shutdown(showing: finalFrame)
  }

  private func close(_ input: Input) {
    if let token = input.watched?.token {
      loop.removeWatch(token)
    }
    if !input.isClosed {
      input.keypad.close()
    }
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

  // MARK: - Keys

  private func readKeys(from keypad: any Keypad) {
    guard let index = inputs.firstIndex(where: { $0.keypad === keypad }) else { return }
    let events: [KeyEvent]
    do {
      events = try keypad.readEvents(at: Daemon.now())
    } catch {
      let hungUp = keypad.terminalHungUp
      if hungUp {
        logger.notice("keypad \(keypad.name): the terminal hung up")
      } else {
        logger.warning("keypad \(keypad.name): \(error); no longer reading it")
      }
      if let token = inputs[index].watched?.token {
        loop.removeWatch(token)
      }
      inputs[index].watched = nil
      inputs[index].isClosed = true
      keypad.close()
      if hungUp {
        onTerminalHangUp()
      }
      return
    }
    if !events.isEmpty {
      onKeys(events)
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
