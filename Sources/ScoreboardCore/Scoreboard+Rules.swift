extension Scoreboard {
  /// The bonus level field `index` lights: how many of its team-foul thresholds its
  /// count has reached (0 for a field that counts no fouls).
  public func bonusLevel(of index: Int) -> Int {
    spec.fields[index].teamFouls?.bonusLevel(of: values[index]) ?? 0
  }

  /// What the rules of the game change because of `changes` (made already): each
  /// team-fouls field whose period advanced past the start of a period that sets it back
  /// goes back to its default; with set scoring, a point won turns the serve to its team
  /// and may win the set (the sets won count it, the points start again).
  @inline(__always)  // as `index(of:)`
  func followingRules(_ changes: [Change]) -> [(field: Int, value: Int)] {
    var updates = setScoring(changes)
    for change in changes {
      guard case .value(let period, let from, let to) = change else { continue }
      // The fields' rules are read where they are: a field copied out of the array (its
      // names, its kind) costs more than the rest of a key's rules.
      for index in spec.fields.indices {
        guard let rules = spec.fields[index].teamFouls,
          rules.period == spec.fields[period].name, rules.resets(periodFrom: from, to: to)
        else { continue }
        updates.append(
          (
            index,
            rules.resetValue(
              periodFrom: from, to: to, defaultValue: spec.fields[index].defaultValue)
          ))
      }
    }
    return updates
  }

  /// With set scoring, keeps the points of each set `changes` ended (a team's sets won
  /// up by one, the points set back): returns the change for `undo`.
  mutating func keepingSetsWon(_ changes: [Change]) -> [Change] {
    guard let rules = spec.sets else { return [] }
    let points = rules.points.compactMap(index(of:))
    let sets = rules.sets.compactMap(index(of:))
    guard points.count == 2, sets.count == 2 else { return [] }
    // A set won by the rules: sets won up, and the points set back in the same change (not
    // a correction of the sets won by hand).
    func contains(_ test: (Int, Int, Int) -> Bool) -> Bool {
      changes.contains {
        if case .value(let field, let from, let to) = $0 { test(field, from, to) } else { false }
      }
    }
    guard contains({ sets.contains($0) && $2 > $1 }), contains({ points.contains($0) && $2 < $1 })
    else { return [] }
    // The points at the end of the set: what the change set back, else where they stand.
    let final = points.map { index in
      changes.reduce(values[index]) { result, change in
        if case .value(let field, let from, _) = change, field == index { from } else { result }
      }
    }
    let old = finishedSets
    finishedSets.append(final)
    return [.finishedSets(from: old, to: finishedSets)]
  }

  /// What set scoring makes of `changes`: for a point won (a team's points going up),
  /// the serve to that team, and when the set is won, its sets won up by one and both
  /// teams' points back to their defaults.
  private func setScoring(_ changes: [Change]) -> [(field: Int, value: Int)] {
    guard let rules = spec.sets else { return [] }
    let points = rules.points.compactMap(index(of:))
    let sets = rules.sets.compactMap(index(of:))
    guard points.count == 2, sets.count == 2 else { return [] }
    var updates: [(field: Int, value: Int)] = []
    for change in changes {
      guard case .value(let field, let from, let to) = change, to > from,
        let team = points.firstIndex(of: field)
      else { continue }
      if let serve = rules.serve.flatMap(index(of:)) {
        updates.append((serve, team))
      }
      let setNumber = values[sets[0]] + values[sets[1]] + 1
      guard
        let winner = rules.winner(
          of: setNumber, points: (values[points[0]], values[points[1]]))
      else { continue }
      let won = sets[winner]
      updates.append((won, min(values[won] + 1, spec.fields[won].valueRange.upperBound)))
      for index in points {
        updates.append((index, spec.fields[index].defaultValue))
      }
    }
    return updates
  }
}

extension Scoreboard {
  /// `next-period`: moves the period field on; stops the game clock (the board's main
  /// clock) and loads it with the new period's length (the game time played goes on, so
  /// penalties carry over); resets the clocks that follow it; sets back what the rules
  /// set back at a period's start; drops the penalties served. One change, for `undo`; an
  /// entry being typed is dropped.
  ///
  /// - Throws: `ScoreboardError.noPeriods` when no field counts the periods,
  ///   `.lastPeriod` at its last value (the field flashes).
  mutating func nextPeriod(at now: Instant, events: inout [ScoreboardEvent])
    throws(ScoreboardError)
  {
    guard let period = spec.periodField else { throw ScoreboardError.noPeriods }
    let field = spec.fields[period]
    let next = values[period] + 1
    guard field.valueRange.contains(next) else {
      refuse(period, at: now, events: &events)
      throw ScoreboardError.lastPeriod(field: field.name, value: field.text(of: values[period]))
    }
    cancelSession(events: &events)
    var changes: [Change] = []
    if let scores = field.periodScores {
      // The period ends: its scores are kept.
      let ended = FinishedPeriod(
        period: values[period], totals: scores.map { index(of: $0).map { values[$0] } ?? 0 })
      changes.append(.finishedPeriods(from: finishedPeriods, to: finishedPeriods + [ended]))
      finishedPeriods.append(ended)
    }
    changes += assign(CollectionOfOne((field: period, value: next)), events: &events)
    changes += assign(followingRules(changes), events: &events)
    // The break after the period that ended, on a clock of its own.
    if let clock = field.breakClock.flatMap(index(of:)),
      let length = field.breakLength(after: next - 1),
      spec.fields[clock].isClock
    {
      stopClock(clock, at: now, events: &events, withFollowers: false)
      changes += loadClock(clock, to: length, at: now, events: &events)
      if (try? startClock(clock, at: now, events: &events)) != nil, clocks[clock]?.isRunning == true
      {
        changes.append(.started(field: clock, time: length))
      }
    }
    if let game = spec.mainClock, let length = field.periodLength(of: next),
      let format = spec.fields[game].clockFormat
    {
      stopClock(game, at: now, events: &events)
      let start = format.direction == .up ? Duration.zero : length
      changes += loadClock(game, to: start, at: now, events: &events)
      let leader = spec.fields[game].name
      for (index, follower) in spec.fields.enumerated() {
        guard let format = follower.clockFormat, format.follows == leader,
          let change = assignClock(index, to: format.startTime, at: now, events: &events)
        else { continue }
        changes.append(change)
      }
    }
    // The penalties served are done with.
    for index in spec.fields.indices where penaltyClock(of: index) != nil {
      if let change = assignPenalties(index, unendedPenalties(index, at: now), events: &events) {
        changes.append(change)
      }
    }
    remember(changes)
  }
}

extension Scoreboard {
  /// Puts saved periods on the board (each the period field's value as text and the
  /// totals at its end), without events or undo entries; those whose value the period
  /// field does not have are left out.
  public mutating func restoreFinishedPeriods(_ saved: [(period: String, totals: [Int])]) {
    guard let index = spec.periodField, spec.fields[index].periodScores != nil else {
      finishedPeriods = []
      return
    }
    finishedPeriods = saved.compactMap { period, totals in
      spec.fields[index].value(parsing: period).map { FinishedPeriod(period: $0, totals: totals) }
    }
  }

  /// Puts the saved points of the sets won on the board, without events or undo entries
  /// (none without set scoring).
  public mutating func restoreFinishedSets(_ saved: [[Int]]) {
    finishedSets = spec.sets == nil ? [] : saved.filter { $0.count == 2 }
  }

  /// The points of each score field the period field keeps, period by period: each
  /// period ended (the difference of its totals from the one before's) and the one being
  /// played, last. Empty when the period field keeps no scores.
  public var scoresByPeriod: [(period: Int, points: [Int])] {
    guard let index = spec.periodField, let scores = spec.fields[index].periodScores else {
      return []
    }
    let defaults = scores.map { name in spec.field(named: name)?.defaultValue ?? 0 }
    let current = scores.map { name in self.index(of: name).map { values[$0] } ?? 0 }
    var result: [(period: Int, points: [Int])] = []
    var before = defaults
    for ended in finishedPeriods + [FinishedPeriod(period: values[index], totals: current)] {
      result.append((ended.period, zip(ended.totals, before).map { $0 - $1 }))
      before = ended.totals
    }
    return result
  }
}

extension Scoreboard {
  /// `timeout TEAM`: the team's timeouts left go down by one, the game clock (the main
  /// clock) stops with the clocks that follow it, and the timeout clock starts from its
  /// start time. One change, for `undo` (which stops the timeout clock again); an entry
  /// being typed is dropped.
  ///
  /// - Throws: `ScoreboardError.unknownTeam` when no field counts the team's timeouts,
  ///   `.noTimeoutLeft` when it has none (the field flashes).
  mutating func takeTimeout(_ team: String, at now: Instant, events: inout [ScoreboardEvent])
    throws(ScoreboardError)
  {
    guard let index = spec.fields.firstIndex(where: { $0.timeouts?.team == team }) else {
      throw ScoreboardError.unknownTeam(
        team, teams: spec.fields.compactMap { $0.timeouts?.team }, keeping: "timeouts")
    }
    let field = spec.fields[index]
    guard values[index] > field.valueRange.lowerBound else {
      refuse(index, at: now, events: &events)
      throw ScoreboardError.noTimeoutLeft(team)
    }
    // An entry being typed (into the count, or a clock the timeout sets) is dropped.
    cancelSession(events: &events)
    var changes = assign(
      CollectionOfOne((field: index, value: values[index] - 1)), events: &events)
    if let game = spec.mainClock {
      stopClock(game, at: now, events: &events)
    }
    if let clock = field.timeouts?.clock.flatMap(self.index(of:)),
      let format = spec.fields[clock].clockFormat
    {
      stopClock(clock, at: now, events: &events, withFollowers: false)
      if let change = assignClock(clock, to: format.startTime, at: now, events: &events) {
        changes.append(change)
      }
      if (try? startClock(clock, at: now, events: &events)) != nil,
        clocks[clock]?.isRunning == true
      {
        changes.append(.started(field: clock, time: format.startTime))
      }
    }
    remember(changes)
  }
}
