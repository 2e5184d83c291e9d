extension Scoreboard {
  /// The bonus level field `index` lights: how many of its team-foul thresholds its
  /// count has reached (0 for a field that counts no fouls).
  public func bonusLevel(of index: Int) -> Int {
    spec.fields[index].teamFouls?.bonusLevel(of: values[index]) ?? 0
  }

  /// What the rules of the game change because of `changes`: each team-fouls field
  /// whose period advanced past the start of a period that sets it back goes back to its
  /// default.
  func followingRules(_ changes: [Change]) -> [(field: Int, value: Int)] {
    var updates: [(field: Int, value: Int)] = []
    for change in changes {
      guard case .value(let period, let from, let to) = change else { continue }
      let name = spec.fields[period].name
      for (index, field) in spec.fields.enumerated() {
        guard let rules = field.teamFouls, rules.period == name,
          rules.resets(periodFrom: from, to: to)
        else { continue }
        updates.append((index, field.defaultValue))
      }
    }
    return updates
  }
}

extension Scoreboard {
  /// `next-period`: moves the period field on; stops the game clock (the board's main
  /// clock) and loads it with the new period's length; resets the clocks that follow it;
  /// sets back what the rules set back at a period's start. One change, for `undo`; an
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
    var changes = assign(CollectionOfOne((field: period, value: next)), events: &events)
    changes += assign(followingRules(changes), events: &events)
    if let game = spec.mainClock, let length = field.periodLength(of: next),
      let format = spec.fields[game].clockFormat
    {
      stopClock(game, at: now, events: &events)
      let start = format.direction == .up ? Duration.zero : length
      if let change = assignClock(game, to: start, at: now, events: &events) {
        changes.append(change)
      }
      let leader = spec.fields[game].name
      for (index, follower) in spec.fields.enumerated() {
        guard let format = follower.clockFormat, format.follows == leader,
          let change = assignClock(index, to: format.startTime, at: now, events: &events)
        else { continue }
        changes.append(change)
      }
    }
    remember(changes)
  }
}
