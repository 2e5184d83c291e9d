/// The scoreboard's state and behaviour: field values and clocks, focus, the edit
/// session, undo, reset, brightness, blanking and horns.
///
/// Pure and deterministic: every call takes the current time, and `nextDeadline(after:)`
/// says when the state next changes by itself (cursor blink, idle timeout, end of a
/// refusal flash, end of the reset window, the next change of a running clock's text, a
/// horn starting or stopping), so a caller can sleep until then.
public struct Scoreboard: Sendable {
  public let spec: ScoreboardSpec
  /// The value of each field, in `spec.fields` order (numbers, or list indices; 0 for
  /// clocks, whose time is in `clocks`).
  public internal(set) var values: [Int]
  /// The state of each clock field, in `spec.fields` order; nil for other fields.
  public internal(set) var clocks: [ClockState?]
  /// The penalties of each penalties field, in the order they were given, in
  /// `spec.fields` order; nil for other fields.
  public internal(set) var penalties: [[Penalty]?]
  /// For each clock field, the game time played when it showed its start time
  /// (`played(_:at:)` adds how far it is into its length): loading a new period moves it,
  /// so the time played goes on; a correction does not, so penalties move with it.
  public internal(set) var playedBase: [Duration]
  /// The periods `next-period` ended, with the score totals at their end, oldest first
  /// (when the period field keeps scores by period).
  public internal(set) var finishedPeriods: [FinishedPeriod] = []
  /// With set scoring, the points of each set won, the teams' in the order of
  /// `SetRules.points`, oldest first.
  public internal(set) var finishedSets: [[Int]] = []
  /// The state of each horn, in `spec.horns` order.
  public internal(set) var horns: [HornState]
  /// The index of the focused field.
  public internal(set) var focus: Int = 0
  /// The open edit session, if any.
  public internal(set) var session: EditSession?
  /// 0...15.
  public internal(set) var brightness: Int
  public internal(set) var isBlanked = false
  /// A refused key flashes this field until `until`.
  public internal(set) var refusal: (field: Int, until: Instant)?
  /// When the first `reset` press happened, while a second one would reset.
  public internal(set) var resetArmedAt: Instant?
  /// The committed changes `undo` can revert, most recent last.
  public internal(set) var undoHistory: UndoHistory
  /// Empty storage for the next change's undo entry: the dropped entry's, which the undo
  /// history gives back once full, so that a key's change allocates no entry of its own.
  private var changeStorage: [Change] = []
  /// The indices of the penalties fields, in `spec.fields` order: the passes over
  /// penalties that every key makes go through these alone (none, on most boards).
  let penaltyFields: [Int]

  /// One field's value before and after a committed change.
  public enum Change: Hashable, Sendable {
    /// A number or list field's value.
    case value(field: Int, from: Int, to: Int)
    /// A clock's time; undone by moving the clock back by the difference, so a clock
    /// that ran since keeps the time it ran.
    case clock(field: Int, from: Duration, to: Duration)
    /// A clock started by a rule (a timeout's clock) from `time`; undone by stopping it
    /// and putting `time` back.
    case started(field: Int, time: Duration)
    /// A team's penalties.
    case penalties(field: Int, from: [Penalty], to: [Penalty])
    /// A clock's game time played at its start time (`playedBase`), moved by loading a
    /// new period.
    case played(field: Int, from: Duration, to: Duration)
    /// The periods ended, with their scores.
    case finishedPeriods(from: [FinishedPeriod], to: [FinishedPeriod])
    /// The points of the sets won.
    case finishedSets(from: [[Int]], to: [[Int]])
  }

  /// A scoreboard with every field at its default value.
  public init(spec: ScoreboardSpec) {
    self.spec = spec
    values = spec.fields.map(\.defaultValue)
    clocks = spec.fields.map { field in field.clockFormat.map { ClockState(time: $0.startTime) } }
    let penalties: [[Penalty]?] = spec.fields.map { field in
      if case .penalties = field.kind { [] } else { nil }
    }
    self.penalties = penalties
    penaltyFields = penalties.indices.filter { penalties[$0] != nil }
    playedBase = spec.fields.map { _ in .zero }
    horns = spec.horns.map { _ in HornState() }
    brightness = min(max(spec.brightness, 0), Action.maximumBrightness)
    undoHistory = UndoHistory(depth: spec.undoDepth)
  }

  /// The current value of the field named `name` as text (`12`, `OT`; a clock's time
  /// to the tenth at `now`, `11:34.2`).
  public func text(of name: String, at now: Instant = .zero) -> String? {
    guard let index = index(of: name) else { return nil }
    return valueText(of: index, at: now)
  }

  /// The value of field `index` as text: `12`, `OT`, a clock's `11:34.2` at `now`; a
  /// penalties field's: its open penalties in the order they serve, each player and
  /// time left (`17/1:32,4/2:00`), `-` for none.
  public func valueText(of index: Int, at now: Instant) -> String {
    let field = spec.fields[index]
    if penaltyFormat(of: index) != nil {
      let open = openPenalties(index, at: now).map { open in
        "\(open.penalty.player)/" + Renderer.penaltyTime(open.remaining)
      }
      return open.isEmpty ? "-" : open.joined(separator: ",")
    }
    guard let format = field.clockFormat, let clock = clocks[index] else {
      return field.text(of: values[index])
    }
    return format.exactText(clock.time(at: now, format: format))
  }

  /// The index of the field named `name`.
  @inline(__always)  // from a mutating method, a call copied the whole board first
  public func index(of name: String) -> Int? {
    spec.fields.indices.first { spec.fields[$0].name == name }
  }

  /// The board with no edit open and nothing flashing or armed: what a display should
  /// keep showing when the daemon stops.
  public var settled: Scoreboard {
    var board = self
    board.session = nil
    board.refusal = nil
    board.resetArmedAt = nil
    return board
  }

  // MARK: - Restoring saved state

  /// Sets values, brightness and blanking from saved state, without events or undo
  /// entries. Unknown fields and out-of-range values are ignored (the field keeps its
  /// default); returns the names of the fields that were ignored.
  @discardableResult
  public mutating func restore(values saved: [String: String], brightness: Int?, isBlanked: Bool?)
    -> [String]
  {
    var ignored: [String] = []
    for (name, text) in saved.sorted(by: { $0.key < $1.key }) {
      guard let index = index(of: name), !spec.fields[index].isClock,
        let value = spec.fields[index].value(parsing: text)
      else {
        ignored.append(name)
        continue
      }
      values[index] = value
    }
    if let brightness {
      self.brightness = min(max(brightness, 0), Action.maximumBrightness)
    }
    if let isBlanked {
      self.isBlanked = isBlanked
    }
    return ignored
  }

  // MARK: - Actions

  /// Carries out `action` at time `now` and reports what happened.
  ///
  /// Time-driven changes due before `now` (an idle timeout, say) happen first.
  /// - Throws: `ScoreboardError` for a request that names no field or an invalid value;
  ///   keys the field's limits refuse are not errors but a `.refused` event.
  public mutating func perform(_ action: Action, at now: Instant) throws(ScoreboardError)
    -> [ScoreboardEvent]
  {
    var events: [ScoreboardEvent] = []
    try perform(action, at: now, reporting: &events)
    return events
  }

  /// `perform(_:at:)`, appending what happened to `events` (an array a caller keeps from
  /// one action to the next needs no new storage for them); what it appended before
  /// throwing is to be dropped.
  public mutating func perform(
    _ action: Action, at now: Instant, reporting events: inout [ScoreboardEvent]
  ) throws(ScoreboardError) {
    advance(to: now, reporting: &events)
    if action != .reset {
      resetArmedAt = nil
    }
    switch action {
    case .digit(let digit):
      if session == nil {
        beginSession(on: focus, at: now, events: &events)
      }
      if session == nil {
        // A running clock takes no digits: stop it first.
        refuse(focus, at: now, events: &events)
      } else {
        typeDigit(digit, at: now, events: &events)
      }
    case .backspace:
      backspace(at: now, events: &events)
    case .commit:
      if session != nil {
        commitSession(at: now, events: &events)
      }
    case .cancel:
      cancelSession(events: &events)
    case .next:
      moveFocus(to: (focus + 1) % spec.fields.count, at: now, events: &events)
    case .previous:
      moveFocus(to: (focus + spec.fields.count - 1) % spec.fields.count, at: now, events: &events)
    case .select(let name):
      moveFocus(to: try fieldIndex(name), at: now, events: &events)
    case .add(nil, let amount):
      if session != nil {
        adjustSession(by: amount, at: now, events: &events)
      } else if spec.fields[focus].isClock {
        try adjustClock(focus, by: .seconds(amount), at: now, events: &events)
      } else {
        change(
          field: focus, to: stepped(focus, from: values[focus], by: amount), at: now,
          events: &events)
      }
    case .add(let name?, let amount):
      let index = try fieldIndex(name)
      if session?.field == index {
        cancelSession(events: &events)
      }
      if spec.fields[index].isClock {
        try adjustClock(index, by: .seconds(amount), at: now, events: &events)
      } else {
        change(
          field: index, to: stepped(index, from: values[index], by: amount), at: now,
          events: &events)
      }
    case .set(let name, let text):
      let index = try fieldIndex(name)
      let field = spec.fields[index]
      if let format = field.clockFormat {
        guard let time = ClockText.parse(text), time <= format.length else {
          throw ScoreboardError.invalidValue(field: name, value: text, expected: expectation(field))
        }
        if session?.field == index {
          cancelSession(events: &events)
        }
        setClock(index, to: time, at: now, events: &events)
        return
      }
      guard let value = field.value(parsing: text) else {
        throw ScoreboardError.invalidValue(field: name, value: text, expected: expectation(field))
      }
      if session?.field == index {
        cancelSession(events: &events)
      }
      change(field: index, to: value, at: now, events: &events)
    case .undo:
      undo(at: now, events: &events)
    case .reset:
      reset(at: now, events: &events)
    case .brightness(let change):
      let level =
        switch change {
        case .by(let steps): brightness + steps
        case .to(let level): level
        }
      let clamped = min(max(level, 0), Action.maximumBrightness)
      if clamped != brightness {
        brightness = clamped
        events.append(.brightnessChanged(clamped))
      }
    case .blank(let change):
      let blanked =
        switch change {
        case .toggle: !isBlanked
        case .on: true
        case .off: false
        }
      if blanked != isBlanked {
        isBlanked = blanked
        events.append(.blankChanged(blanked))
      }
    case .start(let name):
      let index = try clockIndex(name)
      try startClock(index, at: now, events: &events)
    case .stop(let name):
      stopClock(try clockIndex(name), at: now, events: &events)
    case .startStop(let name):
      let index = try clockIndex(name)
      if clocks[index]?.isRunning == true {
        stopClock(index, at: now, events: &events)
      } else {
        try startClock(index, at: now, events: &events)
      }
    case .adjust(let name, let amount):
      let index =
        name == nil && spec.fields[focus].isClock ? focus : try clockIndex(name)
      if session?.field == index {
        cancelSession(events: &events)
      }
      try adjustClock(index, by: amount, at: now, events: &events)
    case .resetClock(let name, let time):
      let index = try clockIndex(name)
      let format = spec.fields[index].clockFormat!
      let target = time ?? format.startTime
      guard target <= format.length else {
        throw ScoreboardError.invalidValue(
          field: spec.fields[index].name,
          value: ClockText.text(
            target, tenths: target.nanoseconds % ClockText.second != 0,
            minutes: format.role == .game),
          expected: expectation(spec.fields[index]))
      }
      if session?.field == index {
        cancelSession(events: &events)
      }
      setClock(index, to: target, at: now, events: &events, loading: true)
    case .horn(let name):
      let index = try hornIndex(name)
      if horns[index].heldSince == nil {
        horns[index].heldSince = now
      }
      horns[index].heldUntil = nil
      reportHorns(at: now, events: &events)
    case .pair:
      // The daemon arms the pairing; the board itself does not change.
      break
    case .nextPeriod:
      try nextPeriod(at: now, events: &events)
    case .timeout(let team):
      try takeTimeout(team, at: now, events: &events)
    case .penalty(.add(let team, let player, let length)):
      try addPenalty(team: team, player: player, length: length, at: now, events: &events)
    case .penalty(.end(let team, let player)):
      try endPenalty(team: team, player: player, at: now, events: &events)
    case .penalty(.remove(let team, let player)):
      try removePenalty(team: team, player: player, at: now, events: &events)
    case .penalty(.time(let team, let player, let left)):
      try correctPenalty(team: team, player: player, left: left, at: now, events: &events)
    }
    // A change of a clock or of the penalties may start or end a penalty now.
    reportPenalties(at: now, events: &events)
  }

  /// Resets every field to its default at once, as one undoable change, without the
  /// second press a keypad's `reset` needs (for the control socket, which has no stray
  /// keys).
  public mutating func resetAll(at now: Instant) -> [ScoreboardEvent] {
    var events = advance(to: now)
    resetArmedAt = nil
    cancelSession(events: &events)
    resetEveryField(at: now, events: &events)
    return events
  }

  /// Lets time pass until `now`: running clocks that reached their end stop there (and
  /// sound their horns), an idle edit session is cancelled, a refusal flash and an
  /// unconfirmed reset expire, horns start and stop.
  public mutating func advance(to now: Instant) -> [ScoreboardEvent] {
    var events: [ScoreboardEvent] = []
    advance(to: now, reporting: &events)
    return events
  }

  /// `advance(to:)`, appending what happened to `events`.
  mutating func advance(to now: Instant, reporting events: inout [ScoreboardEvent]) {
    stopClocksAtTheirEnd(before: now, events: &events)
    reportPenalties(at: now, events: &events)
    soundWarnings(before: now)
    reportHorns(at: now, events: &events)
    if let session, let timeout = spec.editTimeout, now >= session.lastActivity + timeout {
      cancelSession(events: &events)
    }
    if let refusal, now >= refusal.until {
      self.refusal = nil
    }
    if let armed = resetArmedAt, now >= armed + spec.resetWindow {
      resetArmedAt = nil
    }
  }

  /// The next moment after `now` at which the state or its rendering changes by
  /// itself; nil when nothing will change until the next action.
  public func nextDeadline(after now: Instant) -> Instant? {
    var deadlines: [Instant] = []
    if let session {
      if let timeout = spec.editTimeout {
        deadlines.append(session.lastActivity + timeout)
      }
      if spec.cursor != .none {
        deadlines.append(nextToggle(after: now, anchor: session.lastActivity))
      }
    }
    if let refusal {
      deadlines.append(refusal.until)
    }
    if let armed = resetArmedAt {
      deadlines.append(armed + spec.resetWindow)
      deadlines.append(nextToggle(after: now, anchor: armed))
    }
    appendClockDeadlines(after: now, to: &deadlines)
    appendPenaltyDeadlines(after: now, to: &deadlines)
    return deadlines.filter { $0 > now }.min()
  }

  /// Whether a blink that started at `anchor` is in its lit half at `now`.
  public func blinkIsLit(at now: Instant, anchor: Instant) -> Bool {
    let interval = max(spec.blinkInterval.nanoseconds, 1)
    let elapsed = max((now - anchor).nanoseconds, 0)
    return (elapsed / interval) % 2 == 0
  }

  private func nextToggle(after now: Instant, anchor: Instant) -> Instant {
    let interval = max(spec.blinkInterval.nanoseconds, 1)
    let elapsed = max((now - anchor).nanoseconds, 0)
    // The toggle at or before `now`, then one interval more: never past the clock's end.
    let lastToggle = anchor + .nanoseconds(elapsed - elapsed % interval)
    return lastToggle + .nanoseconds(interval)
  }

  // MARK: - Edit sessions

  private mutating func beginSession(
    on index: Int, at now: Instant, events: inout [ScoreboardEvent]
  ) {
    let field = spec.fields[index]
    if let clock = clocks[index], clock.isRunning {
      return  // a running clock is not typed over
    }
    let value = values[index]
    let entry =
      field.clockFormat.map { EditSession.Entry.start($0, time: clocks[index]!.time) }
      ?? EditSession.Entry.start(field, value: value)
    session = EditSession(field: index, originalValue: value, entry: entry, lastActivity: now)
    events.append(.editingBegan(field: field.name))
  }

  private mutating func typeDigit(_ digit: Int, at now: Instant, events: inout [ScoreboardEvent]) {
    guard var session else { return }
    let field = spec.fields[session.field]
    if let format = field.clockFormat {
      typeClockDigit(digit, format: format, session: &session, at: now, events: &events)
      return
    }
    if case .penalties(let format) = field.kind {
      session.lastActivity = now
      typePenaltyDigit(digit, format: format, session: &session, at: now, events: &events)
      return
    }
    guard case .number(let format) = field.kind else {
      refuse(session.field, at: now, events: &events)
      return
    }
    session.lastActivity = now
    switch session.entry {
    case .overwrite(var cells, let cursor):
      cells[cursor] = digit
      let value = EditSession.number(cells.map { $0 ?? 0 })
      let isLast = cursor == cells.count - 1
      let commits = isLast && format.commitOnLastDigit
      guard value <= format.maximum, !commits || value >= format.minimum else {
        self.session = session
        refuse(session.field, at: now, events: &events)
        return
      }
      session.entry = .overwrite(cells: cells, cursor: isLast ? cursor : cursor + 1)
      self.session = session
      events.append(.editingChanged(field: field.name, text: entryText(session)))
      if commits {
        commitSession(at: now, events: &events)
      }
    case .shift(let digits, let fresh):
      var typed = fresh ? [] : digits
      if typed == [0] {
        typed = []
      }
      typed.append(digit)
      guard typed.count <= format.digits, EditSession.number(typed) <= format.maximum else {
        self.session = session
        refuse(session.field, at: now, events: &events)
        return
      }
      session.entry = .shift(digits: typed, fresh: false)
      self.session = session
      events.append(.editingChanged(field: field.name, text: entryText(session)))
    case .list, .penalty:
      break
    }
  }

  private mutating func backspace(at now: Instant, events: inout [ScoreboardEvent]) {
    guard var session else { return }
    session.lastActivity = now
    switch session.entry {
    case .overwrite(let cells, let cursor):
      session.entry = .overwrite(cells: cells, cursor: max(cursor - 1, 0))
    case .shift(let digits, _):
      session.entry = .shift(digits: Array(digits.dropLast()), fresh: false)
    case .penalty(let player, let length):
      session.entry = .penalty(player: Array(player.dropLast()), length: length)
    case .list:
      break
    }
    self.session = session
    events.append(
      .editingChanged(field: spec.fields[session.field].name, text: entryText(session)))
  }

  /// Steps the entry of the open session by `amount` (up/down while editing).
  private mutating func adjustSession(
    by amount: Int, at now: Instant, events: inout [ScoreboardEvent]
  ) {
    guard var session else { return }
    let field = spec.fields[session.field]
    if let format = field.clockFormat {
      let typed = EditSession.time(of: session.entry, format: format) ?? clocks[session.field]!.time
      let time = min(max(typed + .seconds(amount), .zero), format.length)
      session.entry = .start(format, time: time)
    } else if case .penalties(let format) = field.kind,
      case .penalty(let player, let length) = session.entry
    {
      // Up and down choose among the field's lengths.
      let count = format.lengths.count
      session.entry = .penalty(player: player, length: ((length + amount) % count + count) % count)
    } else {
      session.entry = .start(
        field, value: stepped(session.field, from: session.pendingValue, by: amount))
    }
    session.lastActivity = now
    self.session = session
    events.append(.editingChanged(field: field.name, text: entryText(session)))
  }

  mutating func commitSession(at now: Instant, events: inout [ScoreboardEvent]) {
    guard let session else { return }
    let field = spec.fields[session.field]
    if case .penalties(let format) = field.kind {
      commitPenalty(session, format: format, at: now, events: &events)
      return
    }
    if let format = field.clockFormat {
      if session.entry == .start(format, time: clocks[session.field]!.time) {
        // Nothing typed (the focus passing through): the clock keeps its exact time, not
        // the tenth or the second its entry shows.
        self.session = nil
        events.append(.editingEnded(field: field.name, committed: true))
        return
      }
      guard let time = EditSession.time(of: session.entry, format: format), time <= format.length
      else {
        refuse(session.field, at: now, events: &events)
        return
      }
      self.session = nil
      events.append(.editingEnded(field: field.name, committed: true))
      setClock(session.field, to: time, at: now, events: &events)
      return
    }
    let value = session.pendingValue
    guard field.valueRange.contains(value) else {
      refuse(session.field, at: now, events: &events)
      return
    }
    self.session = nil
    events.append(.editingEnded(field: field.name, committed: true))
    change(field: session.field, to: value, at: now, events: &events)
  }

  mutating func cancelSession(events: inout [ScoreboardEvent]) {
    guard let session else { return }
    self.session = nil
    events.append(.editingEnded(field: spec.fields[session.field].name, committed: false))
  }

  /// Ends the open session (committing it) and opens one on `index`. A session whose
  /// entry cannot be committed stays open, and the focus stays.
  private mutating func moveFocus(to index: Int, at now: Instant, events: inout [ScoreboardEvent]) {
    if session != nil {
      commitSession(at: now, events: &events)
      if session != nil {
        return
      }
    }
    if index != focus {
      focus = index
      events.append(.focusChanged(field: spec.fields[index].name))
    }
    beginSession(on: index, at: now, events: &events)
  }

  mutating func refuse(_ index: Int, at now: Instant, events: inout [ScoreboardEvent]) {
    refusal = (index, now + spec.refusalFlash)
    events.append(.refused(field: spec.fields[index].name))
  }

  // MARK: - Committed changes

  /// Sets one field as one undoable change, reporting it when it changed.
  mutating func change(
    field: Int, to value: Int, at now: Instant, events: inout [ScoreboardEvent]
  ) {
    change(CollectionOfOne((field: field, value: value)), at: now, events: &events)
  }

  /// Applies new values as one undoable change, reporting each field that changed.
  /// The rules of the game follow in the same change (team fouls set back when their
  /// period advances, a penalty a power-play goal ends), so that one `undo` takes back
  /// both.
  private mutating func change<Updates: Sequence<(field: Int, value: Int)>>(
    _ updates: Updates, at now: Instant, events: inout [ScoreboardEvent]
  ) {
    // The entry is made in the storage the undo history gave back last time.
    var changes: [Change] = []
    swap(&changes, &changeStorage)
    defer { swap(&changes, &changeStorage) }
    assign(updates, events: &events, into: &changes)
    let following = followingRules(changes)
    assign(following, events: &events, into: &changes)
    changes += keepingSetsWon(changes)
    changes += penaltiesEndedByGoals(changes, at: now, events: &events)
    if !changes.isEmpty {
      undoHistory.append(&changes)
    }
  }

  /// Applies new values, reporting each field that changed; returns the changes.
  mutating func assign<Updates: Sequence<(field: Int, value: Int)>>(
    _ updates: Updates, events: inout [ScoreboardEvent]
  ) -> [Change] {
    var changes: [Change] = []
    assign(updates, events: &events, into: &changes)
    return changes
  }

  /// Applies new values, reporting each field that changed, and appends the changes to
  /// `changes`.
  mutating func assign<Updates: Sequence<(field: Int, value: Int)>>(
    _ updates: Updates, events: inout [ScoreboardEvent], into changes: inout [Change]
  ) {
    for update in updates where values[update.field] != update.value {
      let from = values[update.field]
      changes.append(.value(field: update.field, from: from, to: update.value))
      values[update.field] = update.value
      events.append(
        .valueChanged(field: spec.fields[update.field].name, from: from, to: update.value))
    }
  }

  /// Keeps `changes` as one entry for `undo`, unless there are none.
  mutating func remember(_ changes: [Change]) {
    guard !changes.isEmpty else { return }
    var entry = changes
    undoHistory.append(&entry)
  }

  /// Cancels an open edit session; with none open, reverts the last committed change.
  private mutating func undo(at now: Instant, events: inout [ScoreboardEvent]) {
    if session != nil {
      cancelSession(events: &events)
      return
    }
    guard let last = undoHistory.popLast() else { return }
    for change in last.reversed() {
      switch change {
      case .value(let field, let from, let to):
        values[field] = from
        events.append(.valueChanged(field: spec.fields[field].name, from: to, to: from))
      case .clock(let field, let from, let to):
        moveClock(field, by: from - to, at: now, events: &events)
      case .started(let field, let time):
        stopClock(field, at: now, events: &events, withFollowers: false)
        _ = assignClock(field, to: time, at: now, events: &events)
      case .penalties(let field, let from, _):
        _ = assignPenalties(field, from, events: &events)
      case .played(let field, let from, _):
        playedBase[field] = from
      case .finishedPeriods(let from, _):
        finishedPeriods = from
      case .finishedSets(let from, _):
        finishedSets = from
      }
    }
  }

  private mutating func reset(at now: Instant, events: inout [ScoreboardEvent]) {
    guard let armed = resetArmedAt, now < armed + spec.resetWindow else {
      resetArmedAt = now
      events.append(.resetArmed)
      return
    }
    resetArmedAt = nil
    cancelSession(events: &events)
    resetEveryField(at: now, events: &events)
  }

  /// Every field back to its default, every clock stopped at its start time and every
  /// penalty taken off, as one undoable change.
  private mutating func resetEveryField(at now: Instant, events: inout [ScoreboardEvent]) {
    var changes = assign(
      spec.fields.indices.filter { !spec.fields[$0].isClock }.map {
        ($0, spec.fields[$0].defaultValue)
      }, events: &events)
    for index in spec.fields.indices {
      guard let format = spec.fields[index].clockFormat else { continue }
      stopClock(index, at: now, events: &events, withFollowers: false)
      changes += loadClock(index, to: format.startTime, at: now, events: &events)
    }
    for index in spec.fields.indices {
      if let change = assignPenalties(index, [], events: &events) {
        changes.append(change)
      }
    }
    if !finishedPeriods.isEmpty {
      changes.append(.finishedPeriods(from: finishedPeriods, to: []))
      finishedPeriods = []
    }
    if !finishedSets.isEmpty {
      changes.append(.finishedSets(from: finishedSets, to: []))
      finishedSets = []
    }
    remember(changes)
  }

  /// `value` moved by `amount`: numbers clamped to their limits, list indices wrapped.
  @inline(__always)  // as `index(of:)`
  private func stepped(_ index: Int, from value: Int, by amount: Int) -> Int {
    switch spec.fields[index].kind {
    case .number(let format):
      return min(max(value + amount, format.minimum), format.maximum)
    case .list(let values):
      let count = values.count
      return ((value + amount) % count + count) % count
    case .clock, .penalties:
      return value
    }
  }

  @inline(__always)  // as `index(of:)`
  func fieldIndex(_ name: String) throws(ScoreboardError) -> Int {
    guard let index = index(of: name) else {
      throw ScoreboardError.unknownField(name, known: spec.fields.map(\.name))
    }
    return index
  }

  func expectation(_ field: FieldSpec) -> String {
    switch field.kind {
    case .number(let format): "a number from \(format.minimum) to \(format.maximum)"
    case .list(let values): "one of " + values.joined(separator: " ")
    case .clock(let format):
      ClockText.expected + " up to "
        + ClockText.text(
          format.length, tenths: false, minutes: format.role == .game)
    case .penalties(let format):
      "a penalty, given with 'penalty add \(format.team) PLAYER M:SS'"
    }
  }

  /// What the field of `session` shows while being edited (placeholder cells as spaces).
  func entryText(_ session: EditSession) -> String {
    SegmentFont.text(for: Renderer.entryCells(session, field: spec.fields[session.field]))
  }
}

/// A request the scoreboard cannot carry out.
public enum ScoreboardError: Error, Hashable, Sendable, CustomStringConvertible {
  case unknownField(String, known: [String])
  case invalidValue(field: String, value: String, expected: String)
  /// A clock action named a field that is not a clock, or there is no clock.
  case notAClock(String?, clocks: [String])
  case unknownHorn(String?, known: [String])
  /// The clock must be stopped for this (adjusting it).
  case clockRunning(String)
  /// The clock is at its end and cannot start.
  case clockAtEnd(String)
  /// `next-period` on a board where no field counts the periods.
  case noPeriods
  /// `next-period` at the period field's last value.
  case lastPeriod(field: String, value: String)
  /// `timeout` or `penalty` for a team no field counts the timeouts or penalties of
  /// (`keeping`: `timeouts`, `penalties`).
  case unknownTeam(String, teams: [String], keeping: String)
  /// `timeout` for a team with none left.
  case noTimeoutLeft(String)
  /// A penalty whose player or length the team's slots cannot show.
  case invalidPenalty(team: String, String)
  /// A team's list of penalties is full of open ones.
  case tooManyPenalties(team: String, most: Int)
  /// `penalty end` or `remove` for a player with no open penalty.
  case noPenalty(team: String, player: Int)

  public var description: String {
    switch self {
    case .unknownField(let name, let known):
      "no field named '\(name)' (fields: \(known.joined(separator: ", ")))"
    case .invalidValue(let field, let value, let expected):
      "'\(value)' is not a value of \(field): expected \(expected)"
    case .notAClock(let name?, let clocks):
      "'\(name)' is not a clock (clocks: \(clocks.isEmpty ? "none" : clocks.joined(separator: ", ")))"
    case .notAClock(nil, _):
      "no clock is configured"
    case .unknownHorn(let name?, let known):
      "no horn named '\(name)' (horns: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
    case .unknownHorn(nil, _):
      "no horn is configured"
    case .clockRunning(let name):
      "clock \(name) is running; stop it first"
    case .clockAtEnd(let name):
      "clock \(name) has run out; set or reset it first"
    case .noPeriods:
      "no field counts the periods (give the period field the game clock's lengths, such "
        + "as lengths = 10:00 10:00 10:00 10:00 5:00)"
    case .lastPeriod(let field, let value):
      "\(field) is at its last period, \(value)"
    case .unknownTeam(let team, let teams, let keeping):
      "no field counts the \(keeping) of '\(team)' (teams: "
        + (teams.isEmpty
          ? "none; give a field "
            + (keeping == "timeouts" ? "timeouts-of = TEAM" : "type = penalties and team = TEAM")
          : teams.joined(separator: ", "))
        + ")"
    case .noTimeoutLeft(let team):
      "\(team) has no timeout left"
    case .invalidPenalty(let team, let reason):
      "not a penalty of \(team): \(reason)"
    case .tooManyPenalties(let team, let most):
      "\(team) has \(most) penalties open, the most a team can have"
    case .noPenalty(let team, let player):
      "\(team)'s player \(player) has no penalty open"
    }
  }
}
