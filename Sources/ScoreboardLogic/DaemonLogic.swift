import ScoreboardCore

/// What the daemon does, without any I/O, one input at a time, in the shape of keyd's
/// `kbd_process_events`: key events and control requests go in with the time, and out
/// comes what happened (for the log and the control socket's watchers), the answer to a
/// request, whether a committed change is to be saved, and the next deadline. The
/// displays then show `board`.
///
/// Key events keep their kernel timestamps: an action takes effect at the instant its
/// key was pressed, not when the daemon got round to it, even when frames were drawn
/// after that instant (drawing changes nothing in the model). The model's time never
/// goes back, though, nor past the time of the step: an event stamped before the
/// previous input, or before something the model already reported as it happened
/// (a clock's zero, a horn, an edit's timeout), takes that time, and one stamped in the
/// future takes the step's.
public struct DaemonLogic {
  /// The scoreboard.
  public private(set) var board: Scoreboard
  /// The keypads and their keymaps, in configuration order: `press` without a keypad
  /// name uses the first.
  public private(set) var keymaps: [(keypad: String, keymap: Keymap)] {
    didSet {
      keypadSources = Self.sources(of: keymaps)
      keymapsHoldHorns = Self.holdHorns(keymaps)
    }
  }
  /// What each keypad's changes are recorded as coming from (`keypad NAME`), in the order
  /// of `keymaps`: made once, not on every key.
  private var keypadSources: [String]
  /// Whether each keymap, in the order of `keymaps`, binds a horn key (sounding while
  /// held): only then does a release need its binding looked up.
  private var keymapsHoldHorns: [Bool]
  /// The time of the latest input, or of the latest step in which time passing changed
  /// something: no later input takes effect before it.
  public private(set) var time: Instant = .zero
  /// The events of the last action performed, kept so that an action's events need no
  /// array of their own.
  private var performed: [ScoreboardEvent] = []
  /// Whether reactions carry `keyNotes`: only the debug log has a use for them.
  public var notesKeys = true
  /// The kernel's boot id, saved with running clocks: a clock saved running in another
  /// boot comes back stopped, since its start instant is on that boot's clock.
  public var bootID: String?

  /// One input of a step.
  public enum Input {
    /// Key events of a keypad, as it read them (a slice of one read: no copy is made).
    case keys(ArraySlice<KeyEvent>)
    /// A request of a control client (the daemon answers `status` itself).
    case request(ControlRequest, client: String)
    /// Time passed: a deadline of the board came.
    case deadline
    /// The state of the board this one mirrors, from `source` (`mirror of
    /// scoreboardd/court-1`).
    case mirrored(SavedState, source: String)

    /// Whether someone waits for an answer (a control request): its change is saved at
    /// once, not with the rest of a burst.
    public var hasAnswer: Bool {
      if case .request = self { true } else { false }
    }
  }

  /// What a step did, for the daemon to carry out.
  public struct Reaction {
    /// What happened, in order, each with who caused it (`keypad numpad`, `control
    /// client 3`); nil for time passing.
    public var events: [SourcedEvent] = []
    /// A committed value, the brightness or the blanking changed: the state is to be
    /// saved.
    public var changesState = false
    /// The answer to a request, as it reads when the change is saved.
    public var answer: ControlResponse?
    /// Actions the scoreboard refused (an unknown field, a value out of range): a
    /// client or a keymap can cause them at will.
    public var refusals: [String] = []
    /// What keys did, for the debug log; worked out into words only when it is written.
    public var keyNotes: [KeyNote] = []
    /// When the board next changes by itself; nil when it waits for input.
    public var nextDeadline: Instant?
    /// Key clicks: a key pressed at `time` did something, or was refused.
    public var clicks: [(refused: Bool, time: Instant)] = []
    /// Who pressed a `pair` key: the daemon arms the pairing of a web console.
    public var pairingRequestedBy: String?
    /// The step may have changed the board: it performed an action, answered a request,
    /// took a mirrored state, came at a deadline or reported events. False for keys
    /// that did nothing (the release of a key bound to a press, a key not mapped): the
    /// frames drawn before the step still hold, until the board's next deadline.
    public var mayHaveChangedBoard = false

    /// A reaction of nothing.
    public init() {}

    /// A reaction of nothing, but with the storage of the arrays kept.
    mutating func startAfresh() {
      // `removeAll` is not free even for an empty array; most of these are empty.
      if !events.isEmpty { events.removeAll(keepingCapacity: true) }
      changesState = false
      answer = nil
      if !refusals.isEmpty { refusals.removeAll(keepingCapacity: true) }
      if !keyNotes.isEmpty { keyNotes.removeAll(keepingCapacity: true) }
      nextDeadline = nil
      if !clicks.isEmpty { clicks.removeAll(keepingCapacity: true) }
      pairingRequestedBy = nil
      mayHaveChangedBoard = false
    }
  }

  /// What a key did: the action it is bound to, or nil when it is not mapped.
  public struct KeyNote: Equatable, CustomStringConvertible {
    public var event: KeyEvent
    public var action: Action?

    /// `keypad numpad: KEY_KP1 -> digit 1`, or `keypad numpad: KEY_F2 is not mapped`.
    public var description: String {
      let source = "keypad \(event.keypad): \(event.key)"
      return action.map { "\(source) -> \($0)" } ?? "\(source) is not mapped"
    }
  }

  /// The logic of a board and the keymaps of its keypads, at time zero.
  public init(board: Scoreboard, keymaps: [(keypad: String, keymap: Keymap)]) {
    self.board = board
    self.keymaps = keymaps
    keypadSources = Self.sources(of: keymaps)
    keymapsHoldHorns = Self.holdHorns(keymaps)
  }

  private static func sources(of keymaps: [(keypad: String, keymap: Keymap)]) -> [String] {
    keymaps.map { "keypad " + $0.keypad }
  }

  private static func holdHorns(_ keymaps: [(keypad: String, keymap: Keymap)]) -> [Bool] {
    keymaps.map { keymap in
      keymap.keymap.bindings.values.contains { if case .horn = $0 { true } else { false } }
    }
  }

  /// Calls `body` with the board where it is. A read of `board` through a class's
  /// stored property copies it, retaining each of its arrays; this is `mutating` (it
  /// changes nothing) so that the caller lends its logic in place instead. `body` must
  /// not touch the logic it was lent from.
  public mutating func lendBoard(_ body: (Scoreboard) -> Void) {
    body(board)
  }

  /// Carries out `input` at `now` and reports what happened.
  public mutating func step(_ input: Input, at now: Instant) -> Reaction {
    var reaction = Reaction()
    step(input, at: now, into: &reaction)
    return reaction
  }

  /// Carries out `input` at `now` and reports what happened in `reaction`, which starts
  /// afresh: what it held is dropped, but its arrays keep their storage, so that a step
  /// of a loop that lends the same reaction each time allocates nothing for it.
  public mutating func step(_ input: Input, at now: Instant, into reaction: inout Reaction) {
    reaction.startAfresh()
    switch input {
    case .keys(let events):
      for event in events {
        press(event, at: now, into: &reaction)
      }
    case .request(let request, let client):
      reaction.mayHaveChangedBoard = true
      reaction.answer = answer(request, client: client, at: now, into: &reaction)
    case .deadline:
      reaction.mayHaveChangedBoard = true
    case .mirrored(let state, let source):
      reaction.mayHaveChangedBoard = true
      let time = advanceTime(to: now, now: now)
      passTime(to: time, into: &reaction)
      record(take(state, at: time), source: source, into: &reaction)
    }
    // Whatever else came due by now (a frame drawn now changes nothing in the model, and
    // does not hold back a key stamped before it; a clock's zero does).
    passTime(to: max(now, time), into: &reaction)
    reaction.nextDeadline = board.nextDeadline(after: max(now, time))
  }

  /// Lets time pass on the board until `instant` and reports what that changed; when it
  /// changed something, no later input takes effect before `instant`.
  private mutating func passTime(to instant: Instant, into reaction: inout Reaction) {
    let events = board.advance(to: instant)
    guard !events.isEmpty else { return }
    time = max(time, instant)
    record(events, source: nil, into: &reaction)
  }

  /// Whether a step of `event` can do anything: a press or a repeat always (one that is
  /// not mapped is noted for the debug log), a release only when its keymap binds that
  /// key to a horn, which sounds while the key is held. The loop takes no step for the
  /// other releases, most of them. `mutating` (it changes nothing) for the reason of
  /// `lendBoard`: asked through a class's stored property, a non-mutating call copies
  /// the whole logic first.
  public mutating func acts(on event: KeyEvent) -> Bool {
    event.kind != .release || hornReleased(by: event) != nil
  }

  /// For the release of a key its keymap binds to a horn: the keymap's index and the
  /// horn (nil: the first); nil for any other event. Inlined: a call copied the logic.
  @inline(__always)
  private func hornReleased(by event: KeyEvent) -> (keymap: Int, horn: String?)? {
    guard event.kind == .release,
      let index = keymaps.firstIndex(where: { $0.keypad == event.keypad }),
      keymapsHoldHorns[index], case .horn(let name)? = keymaps[index].keymap.bindings[event.key]
    else { return nil }
    return (index, name)
  }

  /// Switches to a board of `spec` and new keymaps; the committed values carry over by
  /// field name.
  ///
  /// - Returns: The fields whose values were dropped: no longer configured, or no
  ///   longer fitting.
  public mutating func reconfigure(
    _ spec: ScoreboardSpec, keymaps: [(keypad: String, keymap: Keymap)]
  )
    -> [String]
  {
    var newBoard = Scoreboard(spec: spec)
    let dropped = SavedState(from: board.settled).apply(to: &newBoard, at: time)
    board = newBoard
    self.keymaps = keymaps
    return dropped.sorted()
  }

  /// Restores saved values, brightness and blanking without events; a clock saved
  /// running in another boot, or when either boot is unknown, comes back stopped at its
  /// last start.
  ///
  /// - Returns: The saved fields that were dropped, and the clocks stopped.
  public mutating func restore(_ saved: SavedState) -> (dropped: [String], stoppedClocks: [String])
  {
    var saved = saved
    var stopped: [String] = []
    // A running clock's start is an instant of the monotonic clock of the boot it was
    // saved in: with either boot unknown, it cannot be trusted to be this boot's.
    if saved.bootID == nil || bootID == nil || saved.bootID != bootID {
      for (name, clock) in saved.clocks.sorted(by: { $0.key < $1.key }) where clock.isRunning {
        saved.clocks[name]?.startedAt = nil
        stopped.append(name)
      }
    }
    let dropped = saved.apply(to: &board, at: time).sorted()
    return (dropped, stopped.filter { !dropped.contains($0) })
  }

  /// What the state file keeps: the committed values and clocks, not an entry being typed.
  public var savedState: SavedState {
    SavedState(from: board.settled, bootID: bootID)
  }

  // MARK: - Steps

  /// Takes a mirrored board's values, clocks, brightness and blanking, and reports each
  /// change as the events the same change would cause here.
  private mutating func take(_ state: SavedState, at time: Instant) -> [ScoreboardEvent] {
    var events = board.advance(to: time)
    let before = board
    _ = state.apply(to: &board, at: time)
    for (index, field) in board.spec.fields.enumerated() {
      guard let clock = board.clocks[index], let format = field.clockFormat else {
        if board.values[index] != before.values[index] {
          events.append(
            .valueChanged(field: field.name, from: before.values[index], to: board.values[index]))
        }
        continue
      }
      let old = before.clocks[index] ?? clock
      let oldTime = old.time(at: time, format: format)
      let newTime = clock.time(at: time, format: format)
      if clock.isRunning && !old.isRunning {
        events.append(.clockStarted(field: field.name, time: newTime))
      } else if !clock.isRunning && old.isRunning {
        events.append(.clockStopped(field: field.name, time: newTime))
      } else if format.exactText(oldTime) != format.exactText(newTime) {
        events.append(.clockChanged(field: field.name, from: oldTime, to: newTime))
      }
    }
    if board.brightness != before.brightness {
      events.append(.brightnessChanged(board.brightness))
    }
    if board.isBlanked != before.isBlanked {
      events.append(.blankChanged(board.isBlanked))
    }
    return events
  }

  /// The model's time for an input stamped `stamp` in a step at `now`.
  private mutating func advanceTime(to stamp: Instant, now: Instant) -> Instant {
    time = min(max(stamp, time), max(now, time))
    return time
  }

  private mutating func press(_ event: KeyEvent, at now: Instant, into reaction: inout Reaction) {
    if let released = hornReleased(by: event) {
      reaction.mayHaveChangedBoard = true
      let time = advanceTime(to: event.time, now: now)
      passTime(to: time, into: &reaction)
      record(
        board.releaseHorn(released.horn, at: time), source: keypadSources[released.keymap],
        into: &reaction)
      return
    }
    let index = keymaps.firstIndex { $0.keypad == event.keypad }
    guard let index, let binding = keymaps[index].keymap.binding(for: event) else {
      if notesKeys, event.kind == .press {
        reaction.keyNotes.append(KeyNote(event: event, action: nil))
      }
      return
    }
    let action = keymaps[index].keymap.bindings[binding].value
    if notesKeys {
      reaction.keyNotes.append(KeyNote(event: event, action: action))
    }
    reaction.mayHaveChangedBoard = true
    let time = advanceTime(to: event.time, now: now)
    passTime(to: time, into: &reaction)
    let eventsBefore = reaction.events.count
    let error = perform(action, at: time, source: keypadSources[index], into: &reaction)
    let events = reaction.events[eventsBefore...]
    let refused =
      error != nil || events.contains { if case .refused = $0.event { true } else { false } }
    if refused || !events.isEmpty || action == .pair {
      reaction.clicks.append((refused, time))
    }
  }

  private mutating func answer(
    _ request: ControlRequest, client: String, at now: Instant, into reaction: inout Reaction
  ) -> ControlResponse {
    let time = advanceTime(to: now, now: now)
    // What came due before the request is carried out and reported even when the
    // request is refused.
    passTime(to: time, into: &reaction)
    func carryOut(_ action: Action, _ success: (Scoreboard) -> String) -> ControlResponse {
      if let error = perform(action, at: time, source: client, into: &reaction) {
        return .error("\(error)")
      }
      return .ok(success(board))
    }
    switch request {
    case .get(let field):
      guard let text = board.text(of: field, at: time) else {
        return .error(
          ScoreboardError.unknownField(field, known: board.spec.fields.map(\.name)).description)
      }
      return .ok(text)
    case .set(let field, let value):
      return carryOut(.set(field: field, value: value)) {
        "\(field) \($0.text(of: field, at: time) ?? "")"
      }
    case .add(let field, let amount):
      return carryOut(.add(field: field, amount: amount)) {
        "\(field) \($0.text(of: field, at: time) ?? "")"
      }
    case .clock(let action):
      return carryOut(action) { board in
        let focusedClock = board.spec.fields[board.focus].isClock ? board.focus : nil
        let unnamed =
          action.kind == .adjust ? focusedClock ?? board.spec.mainClock : board.spec.mainClock
        guard let index = action.fieldNames.first.flatMap(board.index(of:)) ?? unnamed
        else { return "" }
        let state = board.clocks[index]?.isRunning == true ? "running" : "stopped"
        return "\(board.spec.fields[index].name) \(board.valueText(of: index, at: time)) \(state)"
      }
    case .horn(let name):
      do {
        let events = try board.soundHorn(name, at: time)
        record(events, source: client, into: &reaction)
        return .ok(name ?? board.spec.horns.first?.name ?? "")
      } catch {
        reaction.refusals.append("\(client): horn: \(error)")
        return .error("\(error)")
      }
    case .press(let key, let keypadName):
      guard
        let keypad = keypadName.map({ name in keymaps.first { $0.keypad == name } })
          ?? keymaps.first
      else {
        return .error(keypadName.map { "no keypad named '\($0)'" } ?? "no keypad is configured")
      }
      guard let action = keypad.keymap.bindings[key] else {
        return .error("\(key) is not mapped on keypad \(keypad.keypad)")
      }
      return carryOut(action) { _ in "\(action)" }
    case .undo:
      return carryOut(.undo) { _ in "" }
    case .timeout(let team):
      return carryOut(.timeout(team: team)) { board in
        guard let index = board.spec.fields.firstIndex(where: { $0.timeouts?.team == team })
        else { return "" }
        return "\(board.spec.fields[index].name) \(board.valueText(of: index, at: time))"
      }
    case .penalty(let action):
      return carryOut(.penalty(action)) { board in
        guard
          let index = board.spec.fields.indices.first(where: {
            board.penaltyFormat(of: $0)?.team == action.team
          })
        else { return "" }
        return "\(board.spec.fields[index].name) \(board.valueText(of: index, at: time))"
      }
    case .nextPeriod:
      return carryOut(.nextPeriod) { board in
        guard let index = board.spec.periodField else { return "" }
        return "\(board.spec.fields[index].name) \(board.valueText(of: index, at: time))"
      }
    case .reset:
      let events = board.resetAll(at: time)
      record(events, source: client, into: &reaction)
      return .ok("")
    case .brightness(let change):
      return carryOut(.brightness(change)) { "brightness \($0.brightness)" }
    case .blank(let on):
      return carryOut(.blank(on ? .on : .off)) { "blank \($0.isBlanked ? "on" : "off")" }
    case .holdHorn(let name), .releaseHorn(let name):
      do {
        let events =
          if case .holdHorn = request {
            try board.holdHorn(name, at: time)
          } else {
            board.releaseHorn(name, at: time)
          }
        record(events, source: client, into: &reaction)
        let index = try board.hornIndex(name)
        return .ok(
          "\(board.spec.horns[index].name) \(board.hornIsSounding(index, at: time) ? "on" : "off")")
      } catch {
        reaction.refusals.append("\(client): \(request): \(error)")
        return .error("\(error)")
      }
    case .status, .watch, .help, .pair, .stopPairing, .devices, .unpair:
      return .error("'\(request)' is answered by the daemon")
    }
  }

  /// Performs `action`; the error when the scoreboard refuses it. Time has been passed
  /// to `time` already, so nothing the board does by itself is lost with a refusal.
  @discardableResult
  private mutating func perform(
    _ action: Action, at time: Instant, source: String, into reaction: inout Reaction
  ) -> ScoreboardError? {
    do {
      // Performed first and recorded after: `record(try board.perform(…))` would copy
      // the whole logic, board included, for the call, and every array the board then
      // changes would be copied too.
      if !performed.isEmpty { performed.removeAll(keepingCapacity: true) }
      try board.perform(action, at: time, reporting: &performed)
      record(performed, source: source, into: &reaction)
      if action == .pair {
        reaction.pairingRequestedBy = source
      }
      return nil
    } catch {
      reaction.refusals.append("\(source): \(action): \(error)")
      return error
    }
  }

  private func record(
    _ events: [ScoreboardEvent], source: String?, into reaction: inout Reaction
  ) {
    if !events.isEmpty {
      reaction.mayHaveChangedBoard = true
    }
    for event in events {
      reaction.events.append(SourcedEvent(event, source: source))
      switch event {
      case .valueChanged, .brightnessChanged, .blankChanged, .clockStarted, .clockStopped,
        .clockRanOut, .clockChanged, .penaltyChanged:
        reaction.changesState = true
      default:
        break
      }
    }
  }
}
