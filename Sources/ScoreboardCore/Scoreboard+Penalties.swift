/// Penalties: each team's list, counted in game time played (the running time of the
/// game clock, kept continuous across the loads of a new period), so that a penalty
/// runs only while the game clock runs and a correction of the game clock corrects
/// every penalty with it.
extension Scoreboard {
  // MARK: - Reading

  /// The penalty format of field `index`; nil for a field that keeps no penalties.
  public func penaltyFormat(of index: Int) -> PenaltyFormat? {
    if case .penalties(let format) = spec.fields[index].kind { format } else { nil }
  }

  /// The clock field whose running time the penalties of field `index` count.
  public func penaltyClock(of index: Int) -> Int? {
    guard let format = penaltyFormat(of: index) else { return nil }
    return format.clock.flatMap(self.index(of:)) ?? spec.mainClock
  }

  /// The game time played on clock field `clock` at `now`: how long it has run, with
  /// its corrections, since the first start, across the loads of new periods.
  public func played(_ clock: Int, at now: Instant) -> Duration {
    playedBase[clock] + elapsed(clock, showing: clockTime(clock, at: now))
  }

  /// How far clock field `clock` is into its length when it shows `time`.
  func elapsed(_ clock: Int, showing time: Duration) -> Duration {
    guard let format = spec.fields[clock].clockFormat else { return .zero }
    return format.direction == .down ? format.length - time : time
  }

  /// The game time played at `now` that a penalty given then counts from: the clock's
  /// shown time (the time a scorer writes down), so that the penalty's seconds change
  /// with the clock's.
  func playedAsShown(_ clock: Int, at now: Instant) -> Duration {
    guard let format = spec.fields[clock].clockFormat else { return .zero }
    return playedBase[clock]
      + elapsed(clock, showing: format.shownTime(clockTime(clock, at: now)).time)
  }

  /// When each penalty of field `index` starts and ends, in list order.
  public func penaltyTimes(_ index: Int) -> [Penalty.Times] {
    guard let format = penaltyFormat(of: index), let list = penalties[index] else { return [] }
    return Penalty.schedule(list, serving: format.serving)
  }

  /// The penalties of field `index` that have not ended at `now`, serving ones first
  /// (in the order they started), then the waiting ones: each with its time left.
  public func openPenalties(_ index: Int, at now: Instant) -> [(
    penalty: Penalty, phase: Penalty.Phase, remaining: Duration
  )] {
    guard let list = penalties[index], let clock = penaltyClock(of: index) else { return [] }
    let times = penaltyTimes(index)
    let played = played(clock, at: now)
    return list.indices
      .filter { times[$0].phase(at: played) != .ended }
      .sorted { (times[$0].start, $0) < (times[$1].start, $1) }
      .map { (list[$0], times[$0].phase(at: played), times[$0].remaining(at: played)) }
  }

  /// The number of penalties of field `index` serving at `now`.
  func servingCount(_ index: Int, at now: Instant) -> Int {
    openPenalties(index, at: now).filter { $0.phase == .serving }.count
  }

  /// Whether the team of penalties field `index` is on the power play at `now`: another
  /// team has more penalties serving.
  public func isOnPowerPlay(_ index: Int, at now: Instant) -> Bool {
    guard penaltyFormat(of: index) != nil else { return false }
    let own = servingCount(index, at: now)
    return spec.fields.indices.contains {
      $0 != index && penaltyFormat(of: $0) != nil && servingCount($0, at: now) > own
    }
  }

  /// The penalties field of team `team`.
  func penaltiesField(of team: String) throws(ScoreboardError) -> Int {
    guard let index = spec.fields.indices.first(where: { penaltyFormat(of: $0)?.team == team })
    else {
      throw ScoreboardError.unknownTeam(
        team, teams: spec.fields.indices.compactMap { penaltyFormat(of: $0)?.team },
        keeping: "penalties")
    }
    return index
  }

  // MARK: - Giving and ending

  /// `penalty add TEAM PLAYER LENGTH`: the team's penalty, counting from the game
  /// clock's shown time at `now`; it waits while `serving` others count down. One change,
  /// for `undo`.
  ///
  /// - Throws: `ScoreboardError.unknownTeam`, `.invalidPenalty` for a player number or a
  ///   length the slots cannot show, `.tooManyPenalties` for a full list.
  mutating func addPenalty(
    team: String, player: Int, length: Duration, at now: Instant, events: inout [ScoreboardEvent]
  ) throws(ScoreboardError) {
    let index = try penaltiesField(of: team)
    let format = penaltyFormat(of: index)!
    guard (0...format.largestPlayer).contains(player) else {
      throw ScoreboardError.invalidPenalty(
        team: team, "player \(player) is not a number of 0 to \(format.largestPlayer)")
    }
    guard length > .zero, length <= format.longest,
      length.nanoseconds % ClockText.second == 0
    else {
      throw ScoreboardError.invalidPenalty(
        team: team,
        "'\(ClockText.exact(length, minutes: true))' is not a length of whole seconds from "
          + "0:01 to \(ClockText.text(format.longest, tenths: false, minutes: true))")
    }
    guard let clock = penaltyClock(of: index) else { return }
    var list = penalties[index] ?? []
    if list.count >= PenaltyFormat.maximumCount {
      list = unendedPenalties(index, at: now)
      guard list.count < PenaltyFormat.maximumCount else {
        throw ScoreboardError.tooManyPenalties(team: team, most: PenaltyFormat.maximumCount)
      }
    }
    cancelSession(events: &events)
    list.append(Penalty(player: player, length: length, givenAt: playedAsShown(clock, at: now)))
    replacePenalties(index, with: list, at: now, events: &events)
  }

  /// `penalty end TEAM PLAYER`: the player's penalty that serves ends now (a power-play
  /// goal, or a correction); one still waiting is taken off. One change, for `undo`.
  ///
  /// - Throws: `ScoreboardError.unknownTeam`, `.noPenalty` when the player has none open.
  mutating func endPenalty(
    team: String, player: Int, at now: Instant, events: inout [ScoreboardEvent]
  ) throws(ScoreboardError) {
    let index = try penaltiesField(of: team)
    guard var list = penalties[index],
      let open = try firstOpenPenalty(index, team: team, player: player, at: now)
    else { return }
    cancelSession(events: &events)
    if open.times.phase(at: open.played) == .waiting {
      list.remove(at: open.position)
    } else {
      list[open.position].endedAt = open.played
    }
    replacePenalties(index, with: list, at: now, events: &events)
  }

  /// `penalty remove TEAM PLAYER`: the player's open penalty (the first) is taken off as
  /// if never given (a penalty given in error). One change, for `undo`.
  mutating func removePenalty(
    team: String, player: Int, at now: Instant, events: inout [ScoreboardEvent]
  ) throws(ScoreboardError) {
    let index = try penaltiesField(of: team)
    guard var list = penalties[index],
      let open = try firstOpenPenalty(index, team: team, player: player, at: now)
    else { return }
    cancelSession(events: &events)
    list.remove(at: open.position)
    replacePenalties(index, with: list, at: now, events: &events)
  }

  /// `penalty time TEAM PLAYER M:SS`: the time left on the player's open penalty (the
  /// first) becomes `left`, by changing its length: the penalty box's correction. One
  /// change, for `undo`.
  ///
  /// - Throws: `ScoreboardError.unknownTeam`, `.noPenalty`, `.invalidPenalty` for a time
  ///   the slots cannot show.
  mutating func correctPenalty(
    team: String, player: Int, left: Duration, at now: Instant, events: inout [ScoreboardEvent]
  ) throws(ScoreboardError) {
    let index = try penaltiesField(of: team)
    let format = penaltyFormat(of: index)!
    guard var list = penalties[index],
      let open = try firstOpenPenalty(index, team: team, player: player, at: now)
    else { return }
    let first = open.position
    let length = list[first].length + (left - open.times.remaining(at: open.played))
    guard left > .zero, length > .zero, length <= format.longest, list[first].endedAt == nil
    else {
      throw ScoreboardError.invalidPenalty(
        team: team,
        "'\(ClockText.exact(left, minutes: true))' is not a time left from 0:00.1 to "
          + ClockText.text(format.longest, tenths: false, minutes: true))
    }
    cancelSession(events: &events)
    list[first].length = length
    replacePenalties(index, with: list, at: now, events: &events)
  }

  /// The player's open penalty on penalties field `index` that serves (or waits) first:
  /// its place in the list, when it serves, and the game time played at `now`; nil
  /// without a clock to count.
  ///
  /// - Throws: `ScoreboardError.noPenalty` when the player has none open.
  private func firstOpenPenalty(_ index: Int, team: String, player: Int, at now: Instant)
    throws(ScoreboardError) -> (position: Int, times: Penalty.Times, played: Duration)?
  {
    guard let clock = penaltyClock(of: index), let list = penalties[index] else { return nil }
    let played = played(clock, at: now)
    let times = penaltyTimes(index)
    let open = list.indices.filter {
      list[$0].player == player && times[$0].phase(at: played) != .ended
    }
    guard let first = open.min(by: { times[$0].start < times[$1].start }) else {
      throw ScoreboardError.noPenalty(team: team, player: player)
    }
    return (first, times[first], played)
  }

  /// The penalties of field `index` that have not ended at `now`, in list order.
  func unendedPenalties(_ index: Int, at now: Instant) -> [Penalty] {
    guard let list = penalties[index], let clock = penaltyClock(of: index) else { return [] }
    let played = played(clock, at: now)
    let times = penaltyTimes(index)
    return list.indices.filter { times[$0].phase(at: played) != .ended }.map { list[$0] }
  }

  /// Puts `list` on penalties field `index` as one undoable change, reporting what
  /// changed.
  private mutating func replacePenalties(
    _ index: Int, with list: [Penalty], at now: Instant, events: inout [ScoreboardEvent]
  ) {
    if let change = assignPenalties(index, list, events: &events) {
      remember([change])
    }
    reportPenalties(at: now, events: &events)
  }

  /// Puts `list` on penalties field `index`, reporting the penalties taken off; returns
  /// the change for `undo`, nil when nothing changed.
  mutating func assignPenalties(
    _ index: Int, _ list: [Penalty], events: inout [ScoreboardEvent]
  ) -> Change? {
    guard let old = penalties[index], old != list, let format = penaltyFormat(of: index) else {
      return nil
    }
    // A penalty served is dropped in silence (the next period); others were taken off.
    for penalty in old
    where penalty.reportedPhase != nil && penalty.reportedPhase != .ended
      && !list.contains(where: penalty.isSame)
    {
      events.append(
        .penaltyChanged(team: format.team, player: penalty.player, length: penalty.length, .removed)
      )
    }
    // What was reported is what the board had: a penalty put back (by undo) is reported
    // from where it stood, one new to the list as added.
    var reported = list
    for position in reported.indices {
      reported[position].reportedPhase =
        old.first(where: reported[position].isSame)?.reportedPhase
    }
    penalties[index] = reported
    return .penalties(field: index, from: old, to: list)
  }

  /// What the rules make of `changes` to scores: a goal against a team with more
  /// penalties serving than the other ends its earliest serving penalty of `minor`'s
  /// length (the power play is over).
  mutating func penaltiesEndedByGoals(
    _ changes: [Change], at now: Instant, events: inout [ScoreboardEvent]
  )
    -> [Change]
  {
    var ended: [Change] = []
    for change in changes {
      guard case .value(let field, let from, let to) = change, to > from else { continue }
      let scorer = spec.fields[field].name
      for index in penaltyFields {
        guard var list = penalties[index], let format = penaltyFormat(of: index),
          format.endsOnGoalOf == scorer, let minor = format.minor,
          let clock = penaltyClock(of: index)
        else { continue }
        let others = penaltyFields.filter { $0 != index }
        let opponents = others.map { servingCount($0, at: now) }.max() ?? 0
        guard servingCount(index, at: now) > opponents else { continue }
        let played = played(clock, at: now)
        let times = penaltyTimes(index)
        guard
          let earliest = list.indices.filter({
            times[$0].phase(at: played) == .serving && list[$0].length == minor
              && list[$0].endedAt == nil
          }).min(by: { times[$0].end < times[$1].end })
        else { continue }
        list[earliest].endedAt = played
        if let change = assignPenalties(index, list, events: &events) {
          ended.append(change)
        }
      }
    }
    return ended
  }

  // MARK: - Typing a penalty

  /// Types `digit` into the player's number of a penalty being given.
  mutating func typePenaltyDigit(
    _ digit: Int, format: PenaltyFormat, session: inout EditSession, at now: Instant,
    events: inout [ScoreboardEvent]
  ) {
    guard case .penalty(let player, let length) = session.entry,
      player.count < format.playerDigits
    else {
      refuse(session.field, at: now, events: &events)
      return
    }
    session.entry = .penalty(player: player + [digit], length: length)
    self.session = session
    events.append(.editingChanged(field: spec.fields[session.field].name, text: entryText(session)))
  }

  /// Gives the penalty typed in `session` (Done): refused without a player's number.
  mutating func commitPenalty(
    _ session: EditSession, format: PenaltyFormat, at now: Instant,
    events: inout [ScoreboardEvent]
  ) {
    guard case .penalty(let player, let length) = session.entry, !player.isEmpty,
      format.lengths.indices.contains(length)
    else {
      refuse(session.field, at: now, events: &events)
      return
    }
    do {
      // Giving the penalty closes the session (`addPenalty` cancels it): report it as
      // committed.
      self.session = nil
      events.append(.editingEnded(field: spec.fields[session.field].name, committed: true))
      try addPenalty(
        team: format.team, player: EditSession.number(player), length: format.lengths[length],
        at: now, events: &events)
    } catch {
      refuse(session.field, at: now, events: &events)
    }
  }

  // MARK: - Time passing

  /// Reports each penalty added, started, ended (or back waiting or serving after a
  /// correction of the game clock or an undo) since the last look.
  mutating func reportPenalties(at now: Instant, events: inout [ScoreboardEvent]) {
    for index in penaltyFields {
      guard let list = penalties[index], !list.isEmpty, let format = penaltyFormat(of: index),
        let clock = penaltyClock(of: index)
      else { continue }
      let times = penaltyTimes(index)
      let played = played(clock, at: now)
      for position in list.indices {
        let phase = times[position].phase(at: played)
        let penalty = list[position]
        guard penalty.reportedPhase != phase else { continue }
        if penalty.reportedPhase == nil {
          events.append(
            .penaltyChanged(
              team: format.team, player: penalty.player, length: penalty.length, .added))
        }
        if phase != .waiting || penalty.reportedPhase != nil {
          let change: ScoreboardEvent.PenaltyChange =
            switch phase {
            case .waiting: .waiting
            case .serving: .started
            case .ended: .ended
            }
          events.append(
            .penaltyChanged(
              team: format.team, player: penalty.player, length: penalty.length, change))
        }
        penalties[index]![position].reportedPhase = phase
      }
    }
  }

  /// Adds when penalties next change by themselves while their clock runs: the second a
  /// shown one's time changes, the end of each serving one.
  func appendPenaltyDeadlines(after now: Instant, to deadlines: inout [Instant]) {
    for index in penaltyFields {
      guard let list = penalties[index], !list.isEmpty, let format = penaltyFormat(of: index),
        let clock = penaltyClock(of: index), clocks[clock]?.isRunning == true
      else { continue }
      let played = played(clock, at: now)
      let times = penaltyTimes(index)
      var shown = 0
      for position in list.indices.sorted(by: { (times[$0].start, $0) < (times[$1].start, $1) }) {
        let time = times[position]
        guard time.phase(at: played) == .serving else { continue }
        deadlines.append(now + (time.end - played))
        if shown < format.slots {
          let remaining = time.remaining(at: played).nanoseconds
          let next = (remaining - 1) / ClockText.second * ClockText.second
          deadlines.append(now + .nanoseconds(remaining - max(next, 0)))
        }
        shown += 1
      }
    }
  }

  // MARK: - Loading clocks

  /// Loads clock `index` with `time` as the start of a period (not a correction): the
  /// game time played goes on from where it was, so penalties keep their time. Returns
  /// the changes for `undo`.
  mutating func loadClock(
    _ index: Int, to time: Duration, at now: Instant, events: inout [ScoreboardEvent]
  ) -> [Change] {
    let before = played(index, at: now)
    guard let change = assignClock(index, to: time, at: now, events: &events) else { return [] }
    let base = before - elapsed(index, showing: clockTime(index, at: now))
    guard base != playedBase[index] else { return [change] }
    let played = Change.played(field: index, from: playedBase[index], to: base)
    playedBase[index] = base
    return [change, played]
  }

  // MARK: - Restoring

  /// Puts saved penalties and game time played on the board, without events or undo
  /// entries: the penalties on field `name` (none when it keeps no penalties), reported
  /// as they stand at `now`.
  @discardableResult
  public mutating func restorePenalties(_ name: String, _ list: [Penalty], at now: Instant)
    -> Bool
  {
    guard let index = index(of: name), let format = penaltyFormat(of: index) else { return false }
    var kept = Array(
      list.filter { (0...format.largestPlayer).contains($0.player) && $0.length > .zero }
        .prefix(PenaltyFormat.maximumCount))
    if let clock = penaltyClock(of: index) {
      let times = Penalty.schedule(kept, serving: format.serving)
      let played = played(clock, at: now)
      for position in kept.indices {
        kept[position].reportedPhase = times[position].phase(at: played)
      }
    }
    penalties[index] = kept
    return true
  }

  /// Puts the saved game time played on clock field `name` (its base, with the clock's
  /// own time already restored).
  @discardableResult
  public mutating func restorePlayed(_ name: String, base: Duration) -> Bool {
    guard let index = index(of: name), spec.fields[index].isClock else { return false }
    playedBase[index] = base
    return true
  }
}

extension Penalty {
  /// Whether `other` is this penalty, whatever its phase, length (corrected) or early
  /// end: the same player's, given at the same game time.
  func isSame(_ other: Penalty) -> Bool {
    player == other.player && givenAt == other.givenAt
  }
}
