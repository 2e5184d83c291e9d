import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings

/// The displays and keypads of a configuration, and their watches in the daemon's loop.
///
/// Keypads report their key events through `onKeys`, as the loop finds them readable.
/// Displays are given frames with `show(_:at:)` and serviced when their deadlines come.
/// On a reload, `apply(_:)` keeps the devices whose sections did not change, untouched.
final class Devices {
  /// A display driver, the part of its display's frame it shows, and the last frame it
  /// was given. A class: the loop's handler for its descriptor keeps it, a reload keeps
  /// it for a display whose section did not change, and a copy of its configuration on
  /// every wakeup would cost more than the look.
  private final class Output {
    var configuration: DisplayConfiguration
    /// The cells of the display this driver shows (an S7S module shows 4 of them).
    let cells: Range<Int>
    let display: any SegmentDisplay
    /// The display is a keypad too (a TM1638 board).
    let isKeypad: Bool
    var shown: Frame?
    var watched: Watched?
    /// The display was called since `watch()` last asked what it waits for.
    var waitMayHaveChanged = true
    /// The deadline of what it waited for then.
    var waitDeadline: Instant?
    /// When its periodic refresh was due then, if the loop wakes for it.
    var refreshDeadline: Instant?
    /// Whether the display was online after the last call to it.
    var wasOnline: Bool

    init(configuration: DisplayConfiguration, cells: Range<Int>, display: any SegmentDisplay) {
      self.configuration = configuration
      self.cells = cells
      self.display = display
      isKeypad = display is any Keypad
      wasOnline = display.isOnline
    }

    var layout: DisplayLayout { configuration.layout }

    /// Whether the driver shows the fields as text (a serial text display's template).
    var showsTexts: Bool {
      if case .serialText = configuration.driver { true } else { false }
    }
  }

  /// A keypad and what the loop watches for it (a class, as `Output` is).
  private final class Input {
    var configuration: KeypadConfiguration
    let keypad: any Keypad
    /// The keypad is a display too (a TM1638 board): a call to either is a call to both.
    let isDisplay: Bool
    var watched: Watched?
    var isClosed = false
    /// As `Output`'s.
    var waitMayHaveChanged = true
    var waitDeadline: Instant?
    /// Whether the keypad was online (and not closed) after the last call to it.
    var wasOnline: Bool

    init(configuration: KeypadConfiguration, keypad: any Keypad) {
      self.configuration = configuration
      self.keypad = keypad
      isDisplay = keypad is any SegmentDisplay
      wasOnline = keypad.isOnline
    }

    var isOnline: Bool { !isClosed && keypad.isOnline }
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
  private let i2c: any I2CBackend
  private let logger: Logger
  private let loop: PollLoop
  /// The time, for what the loop calls back without an instant.
  private let clock: any TimeSource
  private var outputs: [Output] = []
  private var inputs: [Input] = []
  /// The horns, in configuration order (the order of the model's `spec.horns`).
  private var horns: [(configuration: HornConfiguration, output: HornOutput)] = []
  /// Whether each display and keypad was online when last asked.
  private var reported: (displays: [ControlStatus.Device], keypads: [ControlStatus.Device])?
  /// The earliest deadline of a device at the last `watch()`; nil when none waits for
  /// one, or before the first.
  private var earliestDeadline: Instant?
  /// Whether the devices changed, or one of them went offline or came back when it was
  /// called, since the last `onlineChanges()`. A device changes only when it is called,
  /// so the loop does not ask every device on every wakeup.
  private(set) var onlineMayHaveChanged = true

  /// Whether the displays' periodic refreshes wait for the watchdog's pings
  /// (`refreshDue(at:)`) rather than waking the loop themselves.
  var refreshesRideOnWatchdog = false

  /// Called with the key events a keypad read.
  var onKeys: (ArraySlice<KeyEvent>) -> Void = { _ in }
  /// Called when a keypad or display that uses a terminal finds it hung up.
  var onTerminalHangUp: () -> Void = {}

  /// Opens every display and keypad of `configuration`.
  ///
  /// - Throws: `DaemonError` when a required keypad cannot be opened; whatever was
  ///   opened is closed again.
  init(
    _ configuration: Configuration, gpio: any GPIOBackend,
    i2c: any I2CBackend = KernelI2CBackend(), logger: Logger, loop: PollLoop,
    clock: any TimeSource, at now: Instant
  ) throws(DaemonError) {
    self.clock = clock
    self.configuration = configuration
    self.gpio = gpio
    self.i2c = i2c
    self.logger = logger
    self.loop = loop
    outputs = configuration.displays.flatMap { openDisplay($0, at: now) }
    horns = configuration.horns.map { ($0, openHorn($0, at: now)) }
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

  /// What the displays show instead of the fields' values while a mirror's source is
  /// away: nil shows the values (`keep` does too).
  var staleDisplay: MQTTSettings.StaleDisplay?

  /// A text the displays show over the board (the web console's pairing code): its
  /// pages (`Renderer.noticePages`), shown in turn from `since`; nil for none.
  private var notice: (pages: [[String: [Segments]]], since: Instant)?
  /// How long each page of a notice too long for the displays shows.
  static let noticePageTime = Duration.milliseconds(1500)

  /// Shows `text` over the board from the next `show`, in pages shown in turn when the
  /// displays have too few cells for it; nil shows the board again.
  func showNotice(_ text: String?) {
    notice = text.map {
      (Renderer.noticePages($0, displays: configuration.scoreboard.displays), clock.now())
    }
  }

  /// How many times the notice turned its page by the last `show`.
  private var noticeTurnsShown = 0

  /// How many times the notice has turned its page at `now` (0 for a notice of one
  /// page).
  private func noticeTurns(at now: Instant) -> Int {
    guard let notice, notice.pages.count > 1 else { return 0 }
    return Int(max(now - notice.since, .zero) / Self.noticePageTime)
  }

  /// Whether the notice turned to another page since the last `show`.
  func noticeTurned(at now: Instant) -> Bool {
    noticeTurns(at: now) != noticeTurnsShown
  }

  /// When the notice turns to its next page; nil when it has one page, or there is none.
  private var nextNoticeTurn: Instant? {
    guard let notice, notice.pages.count > 1 else { return nil }
    return notice.since + Self.noticePageTime * (noticeTurnsShown + 1)
  }

  /// Gives each display its frame of `board` at `now`, when it differs from the last one.
  func show(_ board: Scoreboard, at now: Instant) {
    // The drivers of one display (the modules of an S7S chain) come one after the other
    // and share its frame.
    var whole = Frame.blank(cellCount: 0)
    var wholeDisplay: String?
    noticeTurnsShown = noticeTurns(at: now)
    let noticePage = notice.map { $0.pages[noticeTurnsShown % $0.pages.count] }
    for output in outputs {
      if wholeDisplay != output.configuration.name {
        wholeDisplay = output.configuration.name
        whole = Renderer.frame(
          of: board, display: output.layout, at: now, withTexts: output.showsTexts)
        #if STAGE_TIMES
          StageTimes.mark(.rendered)
        #endif
        switch staleDisplay {
        case .blank?: whole.isBlank = true
        case .dashes?: whole = Renderer.dashed(whole, of: board.spec, display: output.layout)
        case .keep?, nil: break
        }
        if let cells = noticePage?[output.configuration.name] {
          whole = Renderer.showing(cells, over: whole)
        }
      }
      // Compared where they are: a display showing the whole frame (most do) is given
      // it without a copy being made first.
      if output.cells == whole.cells.indices {
        if let shown = output.shown, shown == whole { continue }
        show(whole, on: output, at: now)
      } else {
        let frame = whole.slice(output.cells)
        if let shown = output.shown, shown == frame { continue }
        show(frame, on: output, at: now)
      }
    }
  }

  private func show(_ frame: Frame, on output: Output, at now: Instant) {
    defer { noteCalled(output) }
    do {
      try output.display.show(frame, at: now)
      output.shown = frame
    } catch {
      logger.log(
        .error, throttle: "display \(output.configuration.name)",
        "display \(output.display.name): \(error)")
      if output.display.terminalHungUp {
        onTerminalHangUp()
      }
    }
  }

  /// Sounds or silences each horn as `board` says at `now`.
  func sound(_ board: Scoreboard, at now: Instant) {
    for index in horns.indices where index < board.horns.count {
      horns[index].output.set(sounding: board.hornIsSounding(index, at: now), at: now)
    }
  }

  /// Clicks the horns that click for keys, for a key handled at `now`.
  func click(refused: Bool, at now: Instant) {
    for horn in horns where horn.output.clicks {
      horn.output.click(refused: refused, at: now)
    }
  }

  /// Lets each display send again all it shows if its periodic refresh is due: on the
  /// watchdog's ping, a wakeup that comes anyway, so that the refresh of an idle board
  /// wakes nothing.
  func refreshDue(at now: Instant) {
    for output in outputs {
      output.display.refreshIfDue(at: now)
      noteCalled(output)
    }
  }

  /// Lets displays and keypads whose deadline has come go on with their work.
  func serviceDue(at now: Instant) {
    for horn in horns {
      if let deadline = horn.output.deadline, deadline <= now {
        horn.output.service(at: now)
      }
    }
    // Nothing is due before the earliest deadline the last `watch()` found, nor at all
    // when it found none. A deadline set since (a frame shown in this round) is found by
    // the next `watch()`, which wakes the loop at once if it is due.
    guard let earliestDeadline, now >= earliestDeadline else { return }
    for output in outputs {
      // A deadline `watch()` kept that has come is asked for again by the next one, even
      // when the display no longer waits for it: the loop never spins on a stale one.
      if let deadline = output.waitDeadline, deadline <= now {
        output.waitMayHaveChanged = true
      }
      if let deadline = output.display.waitingFor.deadline, deadline <= now {
        output.display.service([], at: now)
        noteCalled(output)
      }
      if let deadline = output.refreshDeadline, deadline <= now {
        output.display.refreshIfDue(at: now)
        noteCalled(output)
      }
    }
    for input in inputs where !input.isClosed {
      if let deadline = input.waitDeadline, deadline <= now {
        input.waitMayHaveChanged = true
      }
      if let deadline = input.keypad.waitingFor.deadline, deadline <= now {
        let events = input.keypad.service(at: now)
        noteCalled(input)
        deliver(events)
      }
    }
  }

  /// Brings the loop's watches in line with what each device waits for, and returns the
  /// earliest of their deadlines. A device is asked again only once it has been called:
  /// what it waits for changes by nothing else.
  func watch() -> Instant? {
    var earliest: Instant?
    func note(_ deadline: Instant?) {
      if let deadline, earliest.map({ deadline < $0 }) ?? true {
        earliest = deadline
      }
    }
    for output in outputs {
      if output.waitMayHaveChanged {
        output.waitMayHaveChanged = false
        let wait = output.display.waitingFor
        output.watched = rewatch(output.watched, for: wait) {
          { [unowned self] events in
            output.display.service(events, at: self.clock.now())
            self.noteCalled(output)
          }
        }
        output.waitDeadline = wait.deadline
        output.refreshDeadline = refreshesRideOnWatchdog ? nil : output.display.refreshDueAt
      }
      note(output.waitDeadline)
      note(output.refreshDeadline)
    }
    for horn in horns {
      note(horn.output.deadline)
    }
    note(nextNoticeTurn)
    for input in inputs where !input.isClosed {
      if input.waitMayHaveChanged {
        input.waitMayHaveChanged = false
        let wait = input.keypad.waitingFor
        // A key is read before the round's other work (a burst of MQTT commands).
        input.watched = rewatch(input.watched, for: wait, priority: .first) {
          { [unowned self] _ in self.readKeys(from: input) }
        }
        input.waitDeadline = wait.deadline
      }
      note(input.waitDeadline)
    }
    earliestDeadline = earliest
    return earliest
  }

  // MARK: - Status

  /// The displays with whether all their drivers are online, in configuration order.
  var displayStatus: [ControlStatus.Device] {
    configuration.displays.map { display in
      var hasDrivers = false
      var allOnline = true
      for output in outputs where output.configuration.name == display.name {
        hasDrivers = true
        allOnline = allOnline && output.display.isOnline
      }
      return ControlStatus.Device(name: display.name, isOnline: hasDrivers && allOnline)
    }
  }

  /// The keypads with whether each is online, in configuration order.
  var keypadStatus: [ControlStatus.Device] {
    configuration.keypads.map { keypad in
      let input = inputs.first { $0.configuration.name == keypad.name }
      return ControlStatus.Device(
        name: keypad.name, isOnline: input?.isOnline ?? false)
    }
  }

  /// The displays and keypads that went offline or came back since the last call (none
  /// the first time, and none for a device that a reload added).
  func onlineChanges() -> [ControlEvent] {
    guard onlineMayHaveChanged || reported == nil else { return [] }
    onlineMayHaveChanged = false
    let current = (displays: displayStatus, keypads: keypadStatus)
    guard let previous = reported, previous != current else {
      reported = current
      return []
    }
    reported = current
    func changed(_ device: ControlStatus.Device, among before: [ControlStatus.Device]) -> Bool {
      before.first { $0.name == device.name }.map { $0.isOnline != device.isOnline } ?? false
    }
    return current.displays.filter { changed($0, among: previous.displays) }.map {
      .display(name: $0.name, online: $0.isOnline)
    }
      + current.keypads.filter { changed($0, among: previous.keypads) }.map {
        .keypad(name: $0.name, online: $0.isOnline)
      }
  }

  /// Notes that `output`'s display was just called: what it (and the keypad it is) waits
  /// for may have changed, and it may have gone offline or come back. Every call to a
  /// display ends here.
  private func noteCalled(_ output: Output) {
    output.waitMayHaveChanged = true
    if output.isKeypad {
      for input in inputs where input.keypad === output.display {
        input.waitMayHaveChanged = true
      }
    }
    let isOnline = output.display.isOnline
    if isOnline != output.wasOnline {
      output.wasOnline = isOnline
      onlineMayHaveChanged = true
    }
  }

  /// Notes that `input`'s keypad was just called, as `noteCalled(_:)` does a display's.
  /// Every call to a keypad ends here.
  private func noteCalled(_ input: Input) {
    input.waitMayHaveChanged = true
    if input.isDisplay {
      for output in outputs where output.display === input.keypad {
        output.waitMayHaveChanged = true
      }
    }
    let isOnline = input.isOnline
    if isOnline != input.wasOnline {
      input.wasOnline = isOnline
      onlineMayHaveChanged = true
    }
  }

  /// Whether a terminal that a keypad reads or a display draws on hung up.
  var terminalHungUp: Bool {
    inputs.contains { !$0.isClosed && $0.keypad.terminalHungUp }
      || outputs.contains { $0.display.terminalHungUp }
  }

  // MARK: - Opening and closing

  /// Shows the final frames of `board` (when given) and closes every device.
  func close(finalFrames board: Scoreboard?) {
    let now = clock.now()
    for output in outputs {
      close(output, finalFrame: board.map { finalFrame(of: output, board: $0, at: now) })
    }
    outputs.removeAll()
    for horn in horns {
      horn.output.shutdown()
    }
    horns.removeAll()
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
      // A board's keypad is kept with its display, which is the same object.
      if let keypad = new.keypads.first(where: { $0.name == input.configuration.name }),
        keypad.driver == input.configuration.driver, !input.isClosed,
        !(input.keypad is TM1638Board) || keptOutputs[keypad.name] != nil
      {
        keptInputs[keypad.name] = input
      } else {
        close(input)
      }
    }
    var keptHorns: [String: HornOutput] = [:]
    for horn in horns {
      if let same = new.horns.first(where: { $0.name == horn.configuration.name }),
        same.driver == horn.configuration.driver, same.clicks == horn.configuration.clicks,
        same.clickDuration == horn.configuration.clickDuration
      {
        keptHorns[same.name] = horn.output
      } else {
        horn.output.shutdown()
      }
    }
    horns = new.horns.map { horn in (horn, keptHorns[horn.name] ?? openHorn(horn, at: now)) }
    configuration = new
    onlineMayHaveChanged = true  // the next look compares by name
    outputs = new.displays.flatMap { display in
      keptOutputs[display.name].map { kept in
        for output in kept {
          output.configuration = display
        }
        return kept
      } ?? openDisplay(display, at: now)
    }
    inputs = new.keypads.compactMap { keypad in
      if let kept = keptInputs[keypad.name] {
        kept.configuration = keypad
        return kept
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
    // Terminal displays share the terminal, one drawing under the other.
    let terminals = configuration.displays.filter {
      if case .terminal = $0.driver { true } else { false }
    }
    let terminalIndex = terminals.firstIndex { $0.name == display.name } ?? 0
    return DriverFactory.displays(
      display, spec: configuration.scoreboard, keymaps: configuration.keymaps, gpio: gpio, i2c: i2c,
      logger: logger, clock: clock, terminalIndex: terminalIndex, at: now
    ).map { cells, driver in
      Output(configuration: display, cells: cells, display: driver)
    }
  }

  private func openHorn(_ horn: HornConfiguration, at now: Instant) -> HornOutput {
    let wiring: HornOutput.Wiring =
      switch horn.driver {
      case .gpio(let line, let activeLow): .gpio(line: line, activeLow: activeLow, backend: gpio)
      case .terminal: .terminalBell(.standardOutput)
      }
    return HornOutput(
      name: horn.name, wiring: wiring, clicks: horn.clicks, clickDuration: horn.clickDuration,
      logger: logger, at: now)
  }

  private func openKeypad(_ keypad: KeypadConfiguration, at now: Instant) throws(DaemonError)
    -> Input
  {
    let driver = try DriverFactory.keypad(
      keypad, gpio: gpio, kernelDebounce: gpio.supportsKernelDebounce, logger: logger,
      boardNamed: { [outputs] name in
        outputs.lazy.compactMap { $0.display as? TM1638Board }.first { $0.name == name }
      }, at: now)
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

  private func readKeys(from input: Input) {
    let keypad = input.keypad
    defer { noteCalled(input) }
    let events: [KeyEvent]
    do {
      events = try keypad.readEvents(at: clock.now())
      #if STAGE_TIMES
        StageTimes.mark(.decoded)
      #endif
    } catch {
      let hungUp = keypad.terminalHungUp
      if hungUp {
        logger.notice("keypad \(keypad.name): the terminal hung up")
      } else if let end = error as? EndOfInput, end.hadNothingToRead {
        logger.info("keypad \(keypad.name): \(end); not reading it")
      } else {
        logger.warning("keypad \(keypad.name): \(error); no longer reading it")
      }
      if let token = input.watched?.token {
        loop.removeWatch(token)
      }
      input.watched = nil
      input.isClosed = true
      keypad.close()
      if hungUp {
        onTerminalHangUp()
      }
      return
    }
    deliver(events)
  }

  /// Hands `events` to `onKeys`: the first step of them (`firstStep(of:)`), then the
  /// rest.
  private func deliver(_ events: [KeyEvent]) {
    guard !events.isEmpty else { return }
    let first = Self.firstStep(of: events)
    onKeys(events[..<first])
    if first < events.count {
      onKeys(events[first...])
    }
  }

  /// How many of the key events of one read the logic's first step takes: up to the
  /// first press, when more comes behind it (its release, read with it), so that the
  /// displays show the press before the rest is stepped; else all of them.
  static func firstStep(of events: [KeyEvent]) -> Int {
    guard let press = events.firstIndex(where: { $0.kind == .press }) else { return events.count }
    return press + 1
  }

  /// Replaces the watch `current` with one for what `wait` names, when they differ; only
  /// then is the new watch's handler made.
  private func rewatch(
    _ current: Watched?, for wait: DeviceWait, priority: PollLoop.Priority = .normal,
    handler: () -> PollLoop.Handler
  ) -> Watched? {
    let wanted = wait.descriptor.map { Watched(descriptor: $0, events: wait.events) }
    guard wanted != current else { return current }
    // A watch of the same descriptor is replaced by the new one (the kernel's entry
    // changed in place); another one is removed.
    if let token = current?.token, current?.descriptor != wanted?.descriptor {
      loop.removeWatch(token)
    }
    return wanted.map { wanted in
      var watched = wanted
      watched.token = loop.watch(
        wanted.descriptor, for: wanted.events, priority: priority, handler: handler())
      return watched
    }
  }
}
