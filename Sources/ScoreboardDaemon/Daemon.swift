import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardLogic
import ScoreboardMQTT
import ScoreboardSettings

/// The running scoreboard: keypads and the control socket in, the model in the middle,
/// displays out, all on one thread around one `poll()`.
///
/// Each input goes through one step of `DaemonLogic`, which says what happened and
/// when the board next changes by itself; the daemon then carries it out in this order:
/// the displays are served first, then a change is saved (`StateStore`), then watchers
/// and the client are told (an `ok` means saved), and the log lines of the round are
/// written last, so that neither the disk nor the journal delays a key on its way to
/// the wire. The loop sleeps until a descriptor is ready or the next deadline (cursor
/// blink, idle timeout, a display's pacing or retry, a save's retry, the systemd
/// watchdog) comes; an idle scoreboard makes no other wakeups.
public final class Daemon {
  private(set) var configuration: Configuration
  /// What the command line replaces in every configuration read.
  private let overrides: ServiceOverrides
  let logger: Logger
  /// Every read of the time goes through it: the kernel's clocks, or a test's.
  let clock: any TimeSource
  private let loop = PollLoop()
  /// The devices are closed: `shutDown` and `run`'s end happen once.
  private var isShutDown = false
  private let signals: SignalQueue
  private var logic: DaemonLogic
  private var store: StateStore
  private let reporter: StatusReporter
  private var devices: Devices!
  private var control: ControlServer?
  /// The link to the venue's MQTT broker, when `[mqtt]` is configured.
  private var mqtt: MQTTLink?
  /// The board's web server; nil without `[web]`.
  private(set) var web: WebLink?
  /// When the board next changes by itself.
  private var boardDeadline: Instant?
  /// The board's deadline when it was last presented: until then, the frames drawn
  /// then hold for a board the steps since have not changed (nil: until it changes).
  /// Before the first presentation, an instant that has passed.
  private var presentedUntil: Instant? = .zero
  /// A value or a device's state changed since STATUS= was last worked out.
  private var statusMayHaveChanged = false
  private var stopRequested = false
  private var reloadRequested = false
  /// The reaction each step fills, lent from step to step so that its arrays keep their
  /// storage (empty while a step runs: a step within a step gets one of its own).
  private var reactionStorage = DaemonLogic.Reaction()
  /// Steps whose save, displays and watchers wait for the end of `withOneSave`.
  private var heldRound: HeldRound?
  /// The ids of MQTT commands read from the state file, until the MQTT link takes them.
  private var restoredCommandReplies: [SavedState.CommandReply] = []
  /// What waits for a background save to end: answers that promise a saved change.
  private var saveWaiters: [(ticket: UInt64, then: (_ unsavedReason: String?) -> Void)] = []
  /// When what a round's end looks after (all but the devices) next has something due,
  /// as the last round's start worked it out.
  private var housekeepingDeadline: Instant?
  /// The last round only read keys that no keymap acts on (a key's release, read
  /// alone): it changed nothing of what `housekeepingDeadline` covers, and the next
  /// round waits for the same one without working it out again.
  private var housekeepingIsKept = false
  /// This round's keypads read keys that no keymap acts on.
  private var roundReadIgnoredKeys = false
  /// This round took a step of the logic.
  private var roundStepped = false

  /// What the steps of a held round left to do at its end.
  private struct HeldRound {
    var changesState = false
    var watcherLines: [(line: String, source: String?)] = []
  }

  /// Checks the state file's and the control socket's folders, opens the control
  /// socket, restores the saved scores and opens every display and keypad of
  /// `configuration`. `clock` gives every time the daemon reads; `bootID` is the boot
  /// its monotonic instants belong to (a clock saved running in another comes back
  /// stopped).
  ///
  /// - Throws: `DaemonError`: exit code 78 when a folder is not safe to write in, 69
  ///   when another scoreboardd answers on the control socket, or something that is not
  ///   this user's socket is in its place, or a required device cannot be opened;
  ///   whatever was opened is closed again.
  public init(
    configuration: Configuration, overrides: ServiceOverrides = ServiceOverrides(),
    gpio: any GPIOBackend, i2c: any I2CBackend = KernelI2CBackend(), logger: Logger,
    notifier: SystemdNotifier = SystemdNotifier(), clock: any TimeSource = KernelTimeSource(),
    bootID: String? = BootID.current()
  ) throws(DaemonError) {
    self.clock = clock
    self.configuration = overrides.applied(to: configuration)
    self.overrides = overrides
    self.logger = logger
    reporter = StatusReporter(notifier: notifier, logger: logger)
    do {
      try Signal.brokenPipe.ignore()
      signals = try SignalQueue(signals: [.interrupt, .terminate, .hangUp])
    } catch {
      throw DaemonError("cannot set up signal handling: \(error)", exitCode: .software)
    }
    let configuration = self.configuration
    logic = DaemonLogic(
      board: Scoreboard(spec: configuration.scoreboard), keymaps: Self.keymaps(configuration))
    logic.notesKeys = logger.minimumLevel <= .debug
    logic.bootID = bootID
    store = StateStore(
      path: configuration.service.stateFile, logger: logger, inBackground: true, clock: clock)
    try store.prepare()
    control = try openControl(configuration.service)
    let now = clock.now()
    restoreState(at: now)
    do {
      devices = try Devices(
        configuration, gpio: gpio, i2c: i2c, logger: logger, loop: loop, clock: clock, at: now)
    } catch {
      control?.close()
      throw error
    }
    devices.refreshesRideOnWatchdog = notifier.watchdogInterval != nil
    devices.onKeys = { [unowned self] events in
      // One strong reference for the call: each use of an unowned one checks and takes
      // its own.
      let daemon = self
      // A key's release read alone (a keypad's usual second read) mostly does nothing.
      guard events.contains(where: { daemon.logic.acts(on: $0) }) else {
        daemon.roundReadIgnoredKeys = true
        return
      }
      daemon.carryOut(.keys(events))
    }
    adoptStore()
    devices.onTerminalHangUp = { [unowned self] in
      self.stop(because: "the terminal hung up")
    }
    do {
      try openWeb(configuration.web)
    } catch {
      // The web is a window on the board: without it, keys and displays work on.
      logger.error(
        "\(error.message); the board runs without its web server until scoreboardd is "
          + "reloaded or restarted")
    }
    do {
      try openMQTT(configuration.mqtt)
    } catch {
      web?.close()
      devices.close(finalFrames: nil)
      control?.close()
      throw error
    }
  }

  /// Runs until SIGINT or SIGTERM, or until the terminal of the demo hangs up; then
  /// saves the scores, shows the final frames and closes every device.
  ///
  /// - Parameter armingPairing: Arms a pairing code for every field once started, and
  ///   logs it (`--pair`).
  public func run(armingPairing: Bool = false) throws(DaemonError) {
    defer { closeDevices() }
    try start()
    if armingPairing, let code = armPairing(fields: nil, by: "the command line", at: clock.now()) {
      logger.notice("web: the pairing code is \(code)")
    }
    while !stopRequested {
      try runRound()
    }
    shutDown()
  }

  /// Shows the first frames, tells systemd it is ready and connects to the broker: what
  /// `run` does before its first round.
  public func start() throws(DaemonError) {
    logger.sink.hold()
    loop.watch(signals.fileDescriptor, for: .readable) { [unowned self] _ in
      self.handleSignals()
    }
    // The first frames; clocks that ran out while scoreboardd was not running stop where
    // they ran out.
    carryOut(.deadline)
    _ = devices.onlineChanges()
    let status = statusLine()
    logger.info("started: " + status)
    reporter.ready(status, at: clock.now())
    try mqtt?.start()
  }

  /// One round of the loop: waits until a descriptor is ready or the earliest deadline
  /// comes, but at most `longestWait` (nil: as long as that takes), then serves what is
  /// ready and what is due, displays first.
  public func runRound(waitingAtMost longestWait: Duration? = nil) throws(DaemonError) {
    if reloadRequested {
      reloadRequested = false
      reload()
      return
    }
    logger.sink.flush()
    if !housekeepingIsKept {
      housekeepingDeadline = housekeepingDue
    }
    housekeepingIsKept = false
    let deadline = Self.earlier(devices.watch(), housekeepingDeadline)
    roundReadIgnoredKeys = false
    roundStepped = false
    let called: Int
    do {
      if longestWait == nil, clock.isKernelMonotonic {
        // A kernel timer set to the deadline itself; the board's (a clock's text
        // changing) is met on its instant.
        called = try loop.runOnce(
          until: deadline?.nanoseconds, onTheInstant: deadline != nil && deadline == boardDeadline)
      } else {
        var timeout = deadline.map { max($0 - clock.now(), .zero) }
        if let longestWait {
          timeout = min(timeout ?? longestWait, longestWait)
        }
        called = try loop.runOnce(timeout: timeout)
      }
    } catch {
      throw DaemonError("poll failed: \(error)", exitCode: .software)
    }
    let now = clock.now()
    // A round whose one wakeup read keys no keymap acts on, before anything was due,
    // changed nothing the rest of the round looks after: half of a keypad's reads are
    // such releases.
    if called == 1, roundReadIgnoredKeys, !roundStepped, !devices.onlineMayHaveChanged,
      deadline.map({ now < $0 }) ?? true
    {
      housekeepingIsKept = true
      return
    }
    if let deadline = boardDeadline, deadline <= now {
      carryOut(.deadline)
    }
    devices.serviceDue(at: now)
    if devices.noticeTurned(at: now) {
      devices.show(logic.board, at: now)
    }
    control?.answerDeferred()
    let health = store.health
    store.retryIfDue(at: now)
    store.writeHeldIfDue(at: now)
    // The writes of this round's saves whose ends the store took by itself.
    deliver(store.takeFinished())
    noteStateFile(was: health)
    for change in devices.onlineChanges() {
      statusMayHaveChanged = true
      control?.broadcast(change.line)
      web?.broadcast(change.line)
    }
    mqtt?.publishIfDue(logic.board, at: now)
    if let web, web.isDue(at: now) {
      web.serve(at: now)
    }
    updateStatus(at: now)
    if reporter.pingWatchdogIfDue(at: now) {
      devices.refreshDue(at: now)
    }
  }

  /// When the loop next has something due: the board's deadline, a device's, the state
  /// file's retry or the watchdog's ping; nil when it waits for input alone.
  public var nextDeadline: Instant? {
    Self.earlier(devices.watch(), housekeepingDue)
  }

  /// When what a round's end looks after next has something due: the board's deadline,
  /// the web's, the state file's, the status line's, the watchdog's ping, the broker
  /// link's, or now for a control client's deferred lines; nil when none waits for one.
  private var housekeepingDue: Instant? {
    Self.earlier(
      Self.earlier(boardDeadline, web?.deadline),
      Self.earlier(
        Self.earlier(Self.earlier(store.deadline, statusDeadline), reporter.nextWatchdogPing),
        Self.earlier(mqtt?.deadline, control?.hasDeferredLines == true ? clock.now() : nil)))
  }

  /// Whether something more urgent than the next request of a batch waits: a key to read
  /// (a keypad's watch is ready) or the board's deadline come (a clock's frame). The
  /// control clients' and the broker's further requests are then left to a later round,
  /// after the keys and the frames.
  public var urgentWorkWaits: Bool {
    if let boardDeadline, boardDeadline <= clock.now() {
      return true
    }
    return loop.firstIsReady()
  }

  /// What `run` does once it is asked to stop: tells systemd, waits for the state file's
  /// write under way and saves the scores, shows the final frames and closes every
  /// device. Once only.
  public func shutDown() {
    guard !isShutDown else { return }
    reporter.stopping()
    let health = store.health
    finishStore()
    store.save(savedState, at: clock.now())
    noteStateFile(was: health)
    closeDevices()
  }

  /// Closes the broker's link, the devices (with the final frames) and the control
  /// socket, and writes the log lines held; once only.
  private func closeDevices() {
    guard !isShutDown else { return }
    isShutDown = true
    mqtt?.publishPending(logic.board, at: clock.now())
    mqtt?.close()
    web?.close()
    devices.close(finalFrames: logic.board.settled)
    control?.close()
    logger.sink.release()
  }

  /// The earlier of two deadlines; nil when neither is set.
  private static func earlier(_ first: Instant?, _ second: Instant?) -> Instant? {
    guard let first, let second else { return first ?? second }
    return min(first, second)
  }

  // MARK: - Steps

  /// What the state file keeps: the board's committed state and the ids of the last
  /// MQTT commands.
  private var savedState: SavedState {
    var state = logic.savedState
    state.commandReplies = mqtt?.savedCommandReplies ?? restoredCommandReplies
    return state
  }

  /// One step of the logic, carried out: displays, state file, watchers, log.
  ///
  /// - Parameter answered: Gets the answer to a request once its change is saved: `ok`
  ///   turned `unsaved` when it could not be saved (in a held round, at once and as it
  ///   is: the round's end saves).
  func carryOut(_ input: DaemonLogic.Input, answered: ((ControlResponse?) -> Void)? = nil) {
    let (answer, _, progress) = carryOutStep(input)
    guard let answered else { return }
    whenSaved(progress) { unsavedReason in
      if let unsavedReason, case .ok(let text)? = answer {
        answered(.unsaved(text, reason: unsavedReason))
      } else {
        answered(answer)
      }
    }
  }

  /// `carryOut`: the answer, whether the step changed what the state file keeps, and how
  /// its save stands.
  private func carryOutStep(_ input: DaemonLogic.Input) -> (
    answer: ControlResponse?, changesState: Bool, save: StateStore.Progress
  ) {
    let now = clock.now()
    roundStepped = true
    housekeepingIsKept = false
    var reaction = DaemonLogic.Reaction()
    swap(&reaction, &reactionStorage)
    defer { swap(&reaction, &reactionStorage) }
    logic.step(input, at: now, into: &reaction)
    #if STAGE_TIMES
      StageTimes.mark(.stepped)
    #endif
    boardDeadline = reaction.nextDeadline
    if heldRound == nil, reaction.mayHaveChangedBoard || presentationIsDue(at: now) {
      present(at: now)
    }
    for click in reaction.clicks {
      devices.click(refused: click.refused, at: now)
    }
    var save = StateStore.Progress.done(unsavedReason: nil)
    if !reaction.changesState {
      mqtt?.publishWhileRunning(logic.board, clockRuns: logic.board.hasRunningClock, at: now)
    } else {
      mqtt?.forward(ForwardedActions.requests(for: reaction.events, spec: logic.board.spec))
      statusMayHaveChanged = true
      if heldRound != nil {
        heldRound?.changesState = true
      } else {
        save = publishAndSave(at: now, answered: input.hasAnswer)
      }
    }
    if control?.hasWatchers == true || web != nil {
      for sourced in reaction.events {
        let source = sourced.source
        if let controlEvent = ControlEvent(sourced.event, spec: logic.board.spec) {
          if heldRound != nil {
            heldRound?.watcherLines.append((controlEvent.line, source))
          } else {
            control?.broadcast(controlEvent.line)
            web?.broadcast(controlEvent.line)
            web?.noteChange(controlEvent.line, source: source)
          }
        }
      }
    }
    if let source = reaction.pairingRequestedBy {
      armPairing(fields: nil, by: source, at: now)
    }
    log(reaction)
    return (reaction.answer, reaction.changesState, save)
  }

  /// The frames presented last may no longer be the board's at `now`: the board's
  /// deadline then has come.
  private func presentationIsDue(at now: Instant) -> Bool {
    presentedUntil.map { now >= $0 } ?? false
  }

  /// Shows the board on the displays and the pages and sounds its horns.
  private func present(at now: Instant) {
    presentedUntil = boardDeadline
    // The board where it is, for all of them: each `logic.board` read from this class
    // copies the whole board, retaining every array in it.
    logic.lendBoard { board in
      devices.show(board, at: now)
      devices.sound(board, at: now)
      web?.showFrames(board, at: now)
    }
  }

  /// Runs `body`, whose steps show, publish and save only at its end, once: a round of
  /// MQTT commands costs one save, and its answers wait for it.
  ///
  /// - Parameter then: Called once the round's changes are saved (or there were none)
  ///   with nil, else with why they are not.
  func withOneSave(_ body: () -> Void, then: @escaping (_ unsavedReason: String?) -> Void) {
    guard heldRound == nil else {
      body()
      then(nil)
      return
    }
    heldRound = HeldRound()
    body()
    let round = heldRound ?? HeldRound()
    heldRound = nil
    let now = clock.now()
    present(at: now)
    let save =
      round.changesState ? publishAndSave(at: now, answered: true) : .done(unsavedReason: nil)
    for (line, source) in round.watcherLines {
      control?.broadcast(line)
      web?.broadcast(line)
      web?.noteChange(line, source: source)
    }
    whenSaved(save, then)
  }

  /// Publishes the changed board (to the broker at the round's end: once, however many
  /// steps of the round changed it) and starts saving it.
  ///
  /// - Parameter answered: Someone waits for the change to be saved (a control request);
  ///   a key's change may be written with the rest of its burst.
  private func publishAndSave(at now: Instant, answered: Bool) -> StateStore.Progress {
    mqtt?.noteChange()
    web?.publish(logic.board, at: now)
    let health = store.health
    let save = store.save(savedState, at: now, answered: answered)
    noteStateFile(was: health)
    return save
  }

  /// Calls `then` once the save `progress` is done: at once, or when its write ends (and
  /// never before what waits for an earlier save, so that answers keep their order).
  private func whenSaved(
    _ progress: StateStore.Progress, _ then: @escaping (_ unsavedReason: String?) -> Void
  ) {
    switch progress {
    case .done(nil) where !saveWaiters.isEmpty:
      // Nothing to save, but answers to earlier changes wait: this one comes after them.
      saveWaiters.append((saveWaiters[saveWaiters.count - 1].ticket, then))
    case .done(let unsavedReason):
      then(unsavedReason)
    case .writing(let ticket):
      saveWaiters.append((ticket, then))
    }
  }

  /// Tells what waited for the saves that ended.
  private func deliver(_ completions: [StateStore.Completion]) {
    for completion in completions {
      let due = saveWaiters.filter { $0.ticket <= completion.ticket }
      saveWaiters.removeAll { $0.ticket <= completion.ticket }
      for waiter in due {
        waiter.then(completion.unsavedReason)
      }
    }
  }

  /// Lets the store take the current state when a held write begins, and watches its
  /// background writes, to answer what waited for them.
  private func adoptStore() {
    store.currentState = { [unowned self] in self.savedState }
    guard let completions = store.completions else { return }
    loop.watch(completions, for: .readable) { [unowned self] _ in
      let health = self.store.health
      self.deliver(self.store.takeCompletions(at: clock.now()))
      self.noteStateFile(was: health)
    }
  }

  /// Lets the store's background write end and writes what is pending, answering what
  /// waited: before stopping, or before the store is replaced.
  private func finishStore() {
    if let completions = store.completions {
      loop.removeWatch(completions)
    }
    deliver(store.finish(at: clock.now()))
  }

  /// Writes what a step did to the log; nothing is put into words that the log level
  /// leaves out.
  private func log(_ reaction: DaemonLogic.Reaction) {
    for note in reaction.keyNotes {
      logger.debug(note.description)
    }
    for refusal in reaction.refusals {
      logger.log(.warning, throttle: "refused", refusal)
    }
    guard logger.minimumLevel <= .notice else { return }
    let spec = logic.board.spec
    for sourced in reaction.events {
      var origin: String { sourced.source.map { " (\($0))" } ?? "" }
      switch sourced.event {
      case .valueChanged(let name, let from, let to):
        guard logger.minimumLevel <= .info, let field = spec.field(named: name) else { continue }
        logger.info("\(name): \(field.text(of: from)) -> \(field.text(of: to))\(origin)")
      case .brightnessChanged(let level):
        logger.info("brightness \(level)\(origin)")
      case .blankChanged(let blanked):
        logger.info(blanked ? "blanked\(origin)" : "unblanked\(origin)")
      case .resetArmed:
        logger.notice("reset armed: press reset again to reset every field\(origin)")
      case .refused(let name):
        logger.debug("\(name): key refused (outside the field's limits)")
      case .editingBegan(let name):
        logger.debug("\(name): editing")
      case .editingChanged(let name, let text):
        logger.debug("\(name): entry \"\(text)\"")
      case .editingEnded(let name, let committed):
        logger.debug("\(name): editing \(committed ? "committed" : "cancelled")")
      case .focusChanged(let name):
        logger.debug("focus on \(name)")
      case .clockStarted(let name, let time):
        guard let format = spec.field(named: name)?.clockFormat else { continue }
        logger.info("\(name): started at \(format.exactText(time))\(origin)")
      case .clockStopped(let name, let time):
        guard let format = spec.field(named: name)?.clockFormat else { continue }
        logger.info("\(name): stopped at \(format.exactText(time))\(origin)")
      case .clockRanOut(let name):
        guard let format = spec.field(named: name)?.clockFormat else { continue }
        logger.info("\(name): reached \(format.exactText(format.endTime)) and stopped")
      case .clockChanged(let name, let from, let to):
        guard logger.minimumLevel <= .info, let format = spec.field(named: name)?.clockFormat
        else { continue }
        logger.info("\(name): \(format.exactText(from)) -> \(format.exactText(to))\(origin)")
      case .hornChanged(let name, let sounding):
        logger.info("horn \(name) \(sounding ? "on" : "off")\(origin)")
      case .penaltyChanged(let team, let player, let length, let change):
        let time = ClockText.text(length, tenths: false, minutes: true)
        logger.info("penalty \(team) \(player) \(time) \(change.rawValue)\(origin)")
      }
    }
  }

  // MARK: - The state file

  /// Restores the saved scores, then saves at once what the scoreboard starts with, so
  /// that a file that could not be used is replaced and a state file that cannot be
  /// written shows from the start.
  private func restoreState(at now: Instant) {
    if let saved = store.load(at: now) {
      restoredCommandReplies = saved.commandReplies
      let restored = logic.restore(saved)
      for name in restored.dropped {
        logger.notice("saved field \(name) is no longer configured or does not fit; dropped")
      }
      for name in restored.stoppedClocks {
        logger.notice(
          "clock \(name) was running when scoreboardd last stopped, in an earlier boot (a "
            + "power cut or a reboot): it is stopped at \(logic.board.text(of: name, at: now) ?? "?"), "
            + "the time it was last started from")
      }
    }
    store.save(savedState, at: now)
  }

  /// Tells watchers and systemd when the state file began to fail or works again.
  private func noteStateFile(was previous: StateStore.Health) {
    let current = store.health
    guard current != previous else { return }
    statusMayHaveChanged = true
    switch (previous, current) {
    case (.failing, .saved):
      control?.broadcast(ControlEvent.stateFile(saved: true).line)
    case (.saved, .failing), (.off, .failing):
      control?.broadcast(ControlEvent.stateFile(saved: false).line)
    default:
      break
    }
  }

  // MARK: - Status

  /// What `status` answers.
  func controlStatus() -> ControlStatus {
    var status = ControlStatus(
      logic.board, displays: devices.displayStatus, keypads: devices.keypadStatus,
      stateFile: store.status, at: max(clock.now(), logic.time))
    status.mqtt = mqtt.map {
      ControlStatus.MQTTLink(
        isConnected: $0.isConnected, isStale: $0.settings.mirror != nil ? $0.isStale : nil)
    }
    return status
  }

  private func statusLine() -> String {
    var line = StatusReporter.line(
      board: logic.board, displays: devices.displayStatus, keypads: devices.keypadStatus,
      unsavedReason: store.unsavedReason)
    if let mqtt {
      line += mqtt.isConnected ? ", MQTT connected" : ", MQTT disconnected"
      if mqtt.settings.mirror != nil && mqtt.isStale {
        line += ", mirror STALE"
      }
    }
    return line
  }

  /// Sends STATUS= when the status line changed (worked out only after a value, a
  /// device or the state file changed, not on every wakeup).
  private func updateStatus(at now: Instant) {
    guard statusMayHaveChanged, reporter.isListening, reporter.statusHeldUntil(at: now) == nil
    else { return }
    statusMayHaveChanged = false
    reporter.update(statusLine(), at: now)
  }

  /// When a changed status held back by `StatusReporter.statusInterval` may go out.
  private var statusDeadline: Instant? {
    guard statusMayHaveChanged, reporter.isListening else { return nil }
    return reporter.statusHeldUntil(at: clock.now())
  }

  // MARK: - Signals, stopping and reloading

  private func handleSignals() {
    let received: [SignalQueue.Delivery]
    do {
      received = try signals.readSignals()
    } catch {
      logger.error("reading signals: \(error)")
      return
    }
    for delivery in received {
      switch delivery.signal {
      case .interrupt:
        stop(because: "interrupted")
      case .terminate:
        stop(because: "terminated")
      case .hangUp where delivery.isFromKernel || devices.terminalHungUp:
        // The terminal of the demo went away (its window closed, its connection
        // dropped): the person at it is gone, there is nothing to reload for.
        stop(because: "the terminal hung up")
      case .hangUp:
        reloadRequested = true
      default:
        break
      }
    }
  }

  private func stop(because reason: String) {
    guard !stopRequested else { return }
    logger.notice("\(reason); stopping")
    stopRequested = true
  }

  /// Reads the configuration file again and applies it; a file with errors is logged
  /// and the running configuration kept.
  private func reload() {
    reporter.reloading(at: clock.now())
    logger.notice("SIGHUP: reloading \(configuration.path)")
    do {
      let new = try ConfigurationFile.load(configuration.path, overrides: overrides)
      try apply(new)
      logger.notice("reloaded \(configuration.path)")
    } catch {
      for line in error.message.split(separator: "\n") {
        logger.error(String(line))
      }
      logger.error("reload failed; keeping the running configuration")
    }
    reporter.ready(statusLine(), at: clock.now())
  }

  /// Switches to `new`: the scores carry over by field name, and displays and keypads
  /// whose sections did not change keep running untouched.
  ///
  /// - Throws: `DaemonError` when the new state file's folder is not safe, or the new
  ///   control socket cannot be opened; nothing has changed then.
  private func apply(_ new: Configuration) throws(DaemonError) {
    let now = clock.now()
    var newStore: StateStore?
    if new.service.stateFile != configuration.service.stateFile {
      let candidate = StateStore(
        path: new.service.stateFile, logger: logger, inBackground: true, clock: clock)
      try candidate.prepare()
      newStore = candidate
    }
    var newControl: ControlServer??
    let oldService = configuration.service
    if new.service.controlSocket != oldService.controlSocket
      || new.service.maximumControlClients != oldService.maximumControlClients
    {
      control?.close()
      control = nil
      do {
        newControl = .some(try openControl(new.service))
      } catch {
        control = try? openControl(oldService)
        throw error
      }
    }
    if let newStore {
      // The old file gets what is pending of the board before the change.
      finishStore()
      store = newStore
      adoptStore()
    }
    for name in logic.reconfigure(new.scoreboard, keymaps: Self.keymaps(new)) {
      logger.notice("field \(name): no longer configured or its value no longer fits; dropped")
    }
    if let newControl {
      control = newControl
    }
    configuration = new
    logger.minimumLevel = new.service.logLevel
    logic.notesKeys = logger.minimumLevel <= .debug
    devices.apply(new, at: now)
    if new.mqtt != mqtt?.settings {
      if let old = mqtt {
        restoredCommandReplies = old.savedCommandReplies
        loop.removeWatch(old.eventDescriptor)
        old.close()
      }
      mqtt = nil
      do {
        try openMQTT(new.mqtt)
        try mqtt?.start()
      } catch {
        logger.error("\(error.message); MQTT stays off until the next reload")
        mqtt = nil
      }
    } else {
      mqtt?.reconfigure(new.scoreboard)
      mqtt?.publish(logic.board, at: now)
    }
    if new.web != web?.settings {
      if let old = web {
        loop.removeWatch(old.descriptor)
        loop.removeWatch(old.streamsDescriptor)
        old.close()
        devices.showNotice(nil)
      }
      web = nil
      do {
        try openWeb(new.web)
      } catch {
        logger.error("\(error.message); the web server stays off until the next reload")
      }
    }
    // A step like any other: a clock that ran out meanwhile is saved, published, told
    // to watchers and logged.
    carryOut(.deadline)
    let health = store.health
    store.save(savedState, at: clock.now())
    noteStateFile(was: health)
    statusMayHaveChanged = true
  }

  /// Makes the link to the broker `settings` name (nil: none), watched by the loop; it
  /// connects once started.
  private func openMQTT(_ settings: MQTTSettings?) throws(DaemonError) {
    guard let settings else { return }
    let link = try MQTTLink(
      settings: settings, spec: logic.board.spec, logger: logger, clock: clock,
      recentCommands: restoredCommandReplies
    ) { [unowned self] request, origin in
      if case .status = request {
        return (self.controlStatus().response, false)
      }
      let (answer, changesState, _) = self.carryOutStep(.request(request, client: origin))
      return (answer ?? .error("'\(request)' cannot be carried out"), changesState)
    }
    link.withOneSave = { [unowned self] body, then in
      self.withOneSave(body, then: then)
    }
    link.mirrored = { [unowned self] payload in
      self.takeMirrored(payload, source: settings.mirror?.source ?? "")
    }
    link.urgentWorkWaits = { [unowned self] in self.urgentWorkWaits }
    link.staleChanged = { [unowned self] stale in
      self.devices.staleDisplay = stale ? settings.mirror?.whenStale : nil
      self.devices.show(self.logic.board, at: clock.now())
      self.statusMayHaveChanged = true
    }
    loop.watch(link.eventDescriptor, for: .readable) { [unowned self, unowned link] _ in
      link.handleEvents { (self.logic.board, max(clock.now(), self.logic.time)) }
      self.statusMayHaveChanged = true
    }
    if let mirror = settings.mirror {
      devices.staleDisplay = mirror.whenStale
    }
    mqtt = link
  }

  /// Starts the web server `settings` describe (nil: none), watched by the loop.
  private func openWeb(_ settings: WebSettings?) throws(DaemonError) {
    guard let settings else { return }
    let link = try WebLink(
      settings: settings, stateFile: configuration.service.stateFile, logger: logger, clock: clock,
      board: { [unowned self] in (self.logic.board, max(self.clock.now(), self.logic.time)) },
      command: { [unowned self] request, client, answer in
        self.handle(request, client: client, answer: answer)
      })
    link.pairingChanged = { [unowned self] code in
      self.devices.showNotice(code)
      self.devices.show(self.logic.board, at: self.clock.now())
    }
    loop.watch(link.descriptor, for: .readable) { [unowned self, unowned link] _ in
      link.serve(at: self.clock.now())
    }
    loop.watch(link.streamsDescriptor, for: .readable) { [unowned self, unowned link] _ in
      link.endStreamsLeft(at: self.clock.now())
    }
    web = link
  }

  /// Shows the state document of the board this one mirrors; false when it cannot be
  /// read.
  private func takeMirrored(_ payload: String, source: String) -> Bool {
    let now = clock.now()
    do {
      let mirrored = try StateDocument.savedState(
        from: payload, spec: logic.board.spec, at: now,
        wallClockMilliseconds: clock.wallClockMilliseconds())
      for name in mirrored.skipped {
        logger.log(
          .warning, throttle: "mirror \(name)",
          "mirror: field \(name) of \(source) does not fit this board's field \(name); not shown")
      }
      carryOut(.mirrored(mirrored.state, source: ForwardedActions.mirrorSource + source))
      return true
    } catch {
      logger.log(.warning, throttle: "mirror", "mirror: \(source)/state: \(error)")
      return false
    }
  }

  /// Opens the control socket `service` names, after checking its folder.
  private func openControl(_ service: ServiceSettings) throws(DaemonError) -> ControlServer? {
    guard let path = service.controlSocket else { return nil }
    let folder = FileSystem.folder(containing: path)
    do {
      try PrivateFolder.check(folder)
    } catch {
      throw DaemonError(
        "control socket \(path): \(error); scoreboardd does not listen where another user "
          + "could replace or redirect its socket", exitCode: .configuration)
    }
    return try ControlServer(
      path: path, maximumClients: service.maximumControlClients, loop: loop, handler: self,
      logger: logger)
  }

  private static func keymaps(_ configuration: Configuration) -> [(
    keypad: String, keymap: Keymap
  )] {
    configuration.keypads.map { ($0.name, $0.keymap) }
  }
}
