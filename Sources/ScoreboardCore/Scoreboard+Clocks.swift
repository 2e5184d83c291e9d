/// Clocks and horns: starting and stopping at the instant of a key, setting and adjusting
/// as undoable changes, stopping exactly at zero, and the horns that sound then.
extension Scoreboard {
  // MARK: - Reading clocks

  /// The exact time on clock field `index` at `now` (zero for a field that is not a clock).
  public func clockTime(_ index: Int, at now: Instant) -> Duration {
    guard let format = spec.fields[index].clockFormat, let clock = clocks[index] else {
      return .zero
    }
    return clock.time(at: now, format: format)
  }

  /// Whether any clock of the board runs.
  public var hasRunningClock: Bool {
    clocks.contains { $0?.isRunning == true }
  }

  /// Whether clock field `index` is switched off at `now`: a shot clock that follows a
  /// clock counting down on which less time is left than on it.
  public func clockIsBlank(_ index: Int, at now: Instant) -> Bool {
    guard let format = spec.fields[index].clockFormat, format.blanksWhenFollowedHasLess,
      format.direction == .down, let leader = leaderIndex(of: index),
      spec.fields[leader].clockFormat?.direction == .down
    else { return false }
    return clockTime(leader, at: now) < clockTime(index, at: now)
  }

  /// Whether field `index` is not shown: a clock that takes over another field's cells
  /// while it stands (unless it is being set), or a field whose cells such a clock has
  /// while it runs or is set (a timeout's clock shown where the game clock is).
  public func isHidden(_ index: Int) -> Bool {
    func showsOver(_ clock: Int) -> Bool {
      clocks[clock]?.isRunning == true || session?.field == clock
    }
    // On every frame: no copy of a field, and no name compared unless a clock takes over.
    let fields = spec.fields
    if fields[index].takesOver != nil {
      return !showsOver(index)
    }
    return fields.indices.contains {
      fields[$0].takesOver != nil && showsOver($0) && fields[$0].takesOver == fields[index].name
    }
  }

  /// Whether horn `index` of `spec.horns` sounds at `now`.
  public func hornIsSounding(_ index: Int, at now: Instant) -> Bool {
    horns[index].isSounding(at: now, spec: spec.horns[index])
  }

  /// The index of the clock field that clock `index` follows.
  func leaderIndex(of index: Int) -> Int? {
    guard let name = spec.fields[index].clockFormat?.follows else { return nil }
    return self.index(of: name)
  }

  /// The clock fields that follow clock `index`.
  func followers(of index: Int) -> [Int] {
    let name = spec.fields[index].name
    return spec.fields.indices.filter { spec.fields[$0].clockFormat?.follows == name }
  }

  // MARK: - Starting and stopping

  /// Starts clock `index` at `now` with the clocks that follow it; an entry being typed
  /// into it is committed first.
  ///
  /// - Throws: `ScoreboardError.clockAtEnd` for a clock that has run out (it flashes).
  mutating func startClock(_ index: Int, at now: Instant, events: inout [ScoreboardEvent])
    throws(ScoreboardError)
  {
    if session?.field == index {
      commitSession(at: now, events: &events)
      if session != nil { return }  // the entry was refused; it stays open
    }
    guard var clock = clocks[index], !clock.isRunning else { return }
    let format = spec.fields[index].clockFormat!
    guard clock.time != format.endTime else {
      refuse(index, at: now, events: &events)
      throw ScoreboardError.clockAtEnd(spec.fields[index].name)
    }
    clock.startedAt = now
    clocks[index] = clock
    events.append(.clockStarted(field: spec.fields[index].name, time: clock.time))
    // A clock that shows in this one's cells (a timeout's, a break's) ends when it starts.
    for other in spec.fields.indices
    where clocks[other]?.isRunning == true && spec.fields[other].takesOver != nil
      && spec.fields[other].takesOver == spec.fields[index].name
    {
      stopClock(other, at: now, events: &events, withFollowers: false)
    }
    for follower in followers(of: index) {
      // A follower that has run out (a shot clock at 0) stays there until it is reset.
      if let format = spec.fields[follower].clockFormat, clocks[follower]?.time != format.endTime {
        try? startClock(follower, at: now, events: &events)
      }
    }
  }

  /// Stops clock `index` at `now` (and, `withFollowers`, the clocks that follow it).
  mutating func stopClock(
    _ index: Int, at now: Instant, events: inout [ScoreboardEvent], withFollowers: Bool = true
  ) {
    guard var clock = clocks[index], clock.isRunning else { return }
    clock.time = clock.time(at: now, format: spec.fields[index].clockFormat!)
    clock.startedAt = nil
    clocks[index] = clock
    events.append(.clockStopped(field: spec.fields[index].name, time: clock.time))
    if withFollowers {
      for follower in followers(of: index) {
        stopClock(follower, at: now, events: &events)
      }
    }
  }

  /// Stops every running clock whose end came by `now` at that very instant, earliest
  /// first, with the clocks that follow it, and sounds the horns of those clocks.
  mutating func stopClocksAtTheirEnd(before now: Instant, events: inout [ScoreboardEvent]) {
    while true {
      var earliest: (index: Int, end: Instant)?
      for index in clocks.indices {
        guard let clock = clocks[index], let format = spec.fields[index].clockFormat,
          let end = clock.endInstant(format: format), end <= now
        else { continue }
        if earliest.map({ end < $0.end }) ?? true {
          earliest = (index, end)
        }
      }
      guard let (index, end) = earliest else { return }
      let format = spec.fields[index].clockFormat!
      clocks[index] = ClockState(time: format.endTime)
      let name = spec.fields[index].name
      events.append(.clockRanOut(field: name))
      for follower in followers(of: index) {
        stopClock(follower, at: end, events: &events)
      }
      for horn in spec.horns.indices where spec.horns[horn].clocks.contains(name) {
        horns[horn].timedFrom = end
        horns[horn].timedUntil = end + spec.horns[horn].duration
      }
    }
  }

  /// The instant a running clock has `left` before its end, when it started with more
  /// than that left; nil otherwise (stopped, or started with less).
  func warningInstant(_ index: Int, left: Duration) -> Instant? {
    guard let clock = clocks[index], let start = clock.startedAt,
      let format = spec.fields[index].clockFormat
    else { return nil }
    let leftAtStart = format.direction == .down ? clock.time : format.length - clock.time
    guard leftAtStart > left else { return nil }
    return start + (leftAtStart - left)
  }

  /// Sounds each horn whose warning came by `now`, from the warning's instant for its
  /// duration; a warning is sounded once for each start of its clock.
  mutating func soundWarnings(before now: Instant) {
    for horn in spec.horns.indices {
      // Found first and set after: a board whose horns have no warning (or none due)
      // leaves `horns` alone, without making it unique first.
      guard let instant = latestWarning(of: horn, before: now) else { continue }
      horns[horn].timedFrom = instant
      horns[horn].timedUntil = instant + spec.horns[horn].duration
    }
  }

  /// The latest instant by `now` at which a warning of `horn` came, when it came after
  /// the horn was last sounded; nil for none.
  private func latestWarning(of horn: Int, before now: Instant) -> Instant? {
    var latest = horns[horn].timedFrom
    var found = false
    for warning in spec.horns[horn].warnings {
      guard let clock = index(of: warning.clock),
        let instant = warningInstant(clock, left: warning.left), instant <= now,
        latest.map({ $0 < instant }) ?? true
      else { continue }
      latest = instant
      found = true
    }
    return found ? latest : nil
  }

  // MARK: - Setting

  /// Sets clock `index` to `time` as one undoable change. A running clock keeps running
  /// from `time`; a stopped one that follows a running clock starts. `loading` a new
  /// period (`reset-clock`), the game time played goes on from where it was; otherwise
  /// the change is a correction, and the penalties counting the clock move with it.
  mutating func setClock(
    _ index: Int, to time: Duration, at now: Instant, events: inout [ScoreboardEvent],
    loading: Bool = false
  ) {
    if loading {
      remember(loadClock(index, to: time, at: now, events: &events))
    } else if let change = assignClock(index, to: time, at: now, events: &events) {
      remember([change])
    }
    if let leader = leaderIndex(of: index), clocks[leader]?.isRunning == true,
      let format = spec.fields[index].clockFormat, clocks[index]?.time != format.endTime
    {
      try? startClock(index, at: now, events: &events)
    }
  }

  /// Puts `time` on clock `index` (running on from `now` if it runs), reporting it;
  /// returns the change for `undo`, nil when the time was already there.
  mutating func assignClock(
    _ index: Int, to time: Duration, at now: Instant, events: inout [ScoreboardEvent]
  ) -> Change? {
    guard var clock = clocks[index] else { return nil }
    let format = spec.fields[index].clockFormat!
    let from = clock.time(at: now, format: format)
    let to = min(max(time, .zero), format.length)
    guard from != to else { return nil }
    clock.time = to
    if clock.isRunning {
      clock.startedAt = now
    }
    clocks[index] = clock
    events.append(.clockChanged(field: spec.fields[index].name, from: from, to: to))
    return .clock(field: index, from: from, to: to)
  }

  /// Moves stopped clock `index` by `amount`, within zero and its length, as one
  /// undoable change.
  ///
  /// - Throws: `ScoreboardError.clockRunning` while it runs (it flashes).
  mutating func adjustClock(
    _ index: Int, by amount: Duration, at now: Instant, events: inout [ScoreboardEvent]
  ) throws(ScoreboardError) {
    guard let clock = clocks[index] else { return }
    guard !clock.isRunning else {
      refuse(index, at: now, events: &events)
      throw ScoreboardError.clockRunning(spec.fields[index].name)
    }
    setClock(index, to: clock.time + amount, at: now, events: &events)
  }

  /// Moves clock `index` by `amount` whether it runs or not, without an undo entry (what
  /// `undo` does to a clock).
  mutating func moveClock(
    _ index: Int, by amount: Duration, at now: Instant, events: inout [ScoreboardEvent]
  ) {
    _ = assignClock(index, to: clockTime(index, at: now) + amount, at: now, events: &events)
  }

  /// Types `digit` into the entry of `session`, on a clock of `format`: calculator style,
  /// up to one digit more than the whole-second digits (which types tenths); type-over,
  /// the whole-second digits, committing at the last when the clock says so.
  mutating func typeClockDigit(
    _ digit: Int, format: ClockFormat, session: inout EditSession, at now: Instant,
    events: inout [ScoreboardEvent]
  ) {
    session.lastActivity = now
    let name = spec.fields[session.field].name
    switch session.entry {
    case .shift(let digits, let fresh):
      let typed = (fresh ? [] : digits) + [digit]
      guard typed.count <= format.wholeSecondDigits + 1 else {
        self.session = session
        refuse(session.field, at: now, events: &events)
        return
      }
      session.entry = .shift(digits: typed, fresh: false)
      self.session = session
      events.append(.editingChanged(field: name, text: entryText(session)))
    case .overwrite(var cells, let cursor):
      cells[cursor] = digit
      let isLast = cursor == cells.count - 1
      let commits = isLast && format.commitOnLastDigit
      let entry = EditSession.Entry.overwrite(cells: cells, cursor: isLast ? cursor : cursor + 1)
      if commits {
        guard let time = EditSession.time(of: entry, format: format), time <= format.length else {
          self.session = session
          refuse(session.field, at: now, events: &events)
          return
        }
      }
      session.entry = entry
      self.session = session
      events.append(.editingChanged(field: name, text: entryText(session)))
      if commits {
        commitSession(at: now, events: &events)
      }
    case .list, .penalty:
      break
    }
  }

  // MARK: - Horns

  /// Lets go of horn `name`'s key (the first horn when nil): it stops unless it sounds
  /// for a clock.
  public mutating func releaseHorn(_ name: String?, at now: Instant) -> [ScoreboardEvent] {
    var events = advance(to: now)
    guard let index = try? hornIndex(name) else { return events }
    horns[index].heldSince = nil
    horns[index].heldUntil = nil
    reportHorns(at: now, events: &events)
    return events
  }

  /// How long a remote hold of a horn lasts unless renewed.
  public static let hornHoldLease = Duration.seconds(1)

  /// Holds horn `name` (the first when nil) from a client that cannot report a key's
  /// release reliably (a web page): it sounds until `hornHoldLease` after the last hold,
  /// its release, or its hold limit, whichever comes first.
  public mutating func holdHorn(_ name: String?, at now: Instant) throws(ScoreboardError)
    -> [ScoreboardEvent]
  {
    var events = advance(to: now)
    let index = try hornIndex(name)
    // A renewal keeps the hold's start, so the hold limit still ends a stuck button.
    let renewing =
      horns[index].heldSince != nil && (horns[index].heldUntil.map { now < $0 } ?? true)
    if !renewing {
      horns[index].heldSince = now
    }
    horns[index].heldUntil = now + Self.hornHoldLease
    reportHorns(at: now, events: &events)
    return events
  }

  /// Sounds horn `name` (the first when nil) for its duration from `now`, as a clock's
  /// zero does.
  public mutating func soundHorn(_ name: String?, at now: Instant) throws(ScoreboardError)
    -> [ScoreboardEvent]
  {
    var events = advance(to: now)
    let index = try hornIndex(name)
    horns[index].timedFrom = now
    horns[index].timedUntil = now + spec.horns[index].duration
    reportHorns(at: now, events: &events)
    return events
  }

  /// Reports each horn that started or stopped sounding since the last look.
  mutating func reportHorns(at now: Instant, events: inout [ScoreboardEvent]) {
    for index in horns.indices {
      let sounding = hornIsSounding(index, at: now)
      if sounding != horns[index].reportedOn {
        horns[index].reportedOn = sounding
        events.append(.hornChanged(horn: spec.horns[index].name, sounding: sounding))
      }
    }
  }

  // MARK: - Deadlines

  /// Adds when clocks next change by themselves: their text, their end, a shot clock
  /// switching off; and when horns start or stop.
  func appendClockDeadlines(after now: Instant, to deadlines: inout [Instant]) {
    for index in clocks.indices {
      guard let clock = clocks[index], let format = spec.fields[index].clockFormat else {
        continue
      }
      if let change = clock.nextTextChange(after: now, format: format) {
        deadlines.append(change)
      }
      if let end = clock.endInstant(format: format) {
        deadlines.append(end)
      }
      // A stopped shot clock goes dark when the running clock it follows passes it.
      if !clock.isRunning, format.blanksWhenFollowedHasLess, let leader = leaderIndex(of: index),
        let leaderClock = clocks[leader], let leaderStart = leaderClock.startedAt,
        spec.fields[leader].clockFormat?.direction == .down, leaderClock.time > clock.time
      {
        deadlines.append(leaderStart + (leaderClock.time - clock.time) + .nanoseconds(1))
      }
    }
    for index in horns.indices {
      if let change = horns[index].nextChange(after: now, spec: spec.horns[index]) {
        deadlines.append(change)
      }
      for warning in spec.horns[index].warnings {
        if let clock = self.index(of: warning.clock),
          let instant = warningInstant(clock, left: warning.left), instant > now
        {
          deadlines.append(instant)
        }
      }
    }
  }

  // MARK: - Names

  /// The clock field `name` names; the main clock when nil.
  func clockIndex(_ name: String?) throws(ScoreboardError) -> Int {
    // The clocks' names are listed only for the error: start and stop keys are on the
    // path to the wire.
    var clocks: [String] { spec.fields.filter { $0.isClock }.map(\.name) }
    guard let name else {
      guard let main = spec.mainClock else { throw ScoreboardError.notAClock(nil, clocks: clocks) }
      return main
    }
    guard let index = index(of: name), spec.fields[index].isClock else {
      throw ScoreboardError.notAClock(name, clocks: clocks)
    }
    return index
  }

  /// The horn `name` names; the first when nil.
  /// The index of horn `name` in `spec.horns`, the first when nil.
  public func hornIndex(_ name: String?) throws(ScoreboardError) -> Int {
    let horns = spec.horns
    guard
      let index = name.map({ name in horns.firstIndex { $0.name == name } }) ?? horns.indices.first
    else { throw ScoreboardError.unknownHorn(name, known: horns.map(\.name)) }
    return index
  }

  // MARK: - Restoring

  /// Puts a saved clock state on clock field `name`, without events or undo entries; a
  /// time past the clock's length is clamped. Returns false when there is no such clock.
  @discardableResult
  public mutating func restoreClock(_ name: String, _ state: ClockState) -> Bool {
    guard let index = index(of: name), let format = spec.fields[index].clockFormat else {
      return false
    }
    clocks[index] = ClockState(
      time: min(max(state.time, .zero), format.length), startedAt: state.startedAt)
    return true
  }
}
