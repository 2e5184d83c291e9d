import ScoreboardCore

/// The board's whole state as one JSON document, published retained at `<base>/state`,
/// and read back by mirror boards.
///
///     {"fields":{
///        "home":{"shown":"12","value":12},
///        "home-fouls":{"shown":"5","value":5,"bonus":1},
///        "period":{"shown":"OT","value":"OT"},
///        "game":{"shown":"9:59","clock":{"time_ms":598200,"running":true,
///          "started_at_ms":1764662398000,"time_at_start_ms":600000,"counts":"down",
///          "end_ms":0}}},
///      "brightness":8,"blank":false,"published_at_ms":1764662400123}
///
/// Fields are in the configuration's order, with their committed values (never an entry
/// being typed). `shown` is the text the field's digits show; a team-fouls field with a
/// bonus has its `bonus` level (0: none, 1: the bonus, 2: the double bonus). A penalties
/// field has its open `penalties` in the order they serve (`player`, `length_ms`,
/// `remaining_ms`, `state` waiting or serving, and `given_ms`/`ended_ms` in game time
/// played) and its `game_clock`, whose field then has `played_ms`: a page runs a serving
/// penalty down while that clock runs. A clock's start is given on
/// the wall clock (milliseconds since 1970), so a subscriber can run the clock itself:
/// its time is `time_at_start_ms` minus (counting down) or plus (counting up) the time
/// since `started_at_ms`, stopping at `end_ms`.
public enum StateDocument {
  /// The document of `board` at `now`, when the wall clock reads `wallClockMilliseconds`.
  /// Clocks that reached their end by `now` are stopped there. A publisher that writes
  /// the document again at every change keeps a `StateDocumentWriter` instead.
  public static func json(of board: Scoreboard, at now: Instant, wallClockMilliseconds: Int64)
    -> String
  {
    var writer = StateDocumentWriter()
    return writer.json(of: board, at: now, wallClockMilliseconds: wallClockMilliseconds)
  }

  // MARK: - Reading

  /// The state a mirror board of `spec` takes from a document `payload` that arrives at
  /// `now`, when the wall clock reads `wallClockMilliseconds`.
  ///
  /// Values are written as the state file has them (`field.text(of:)`); a running
  /// clock's start is put on the local monotonic clock (`now` minus the wall-clock time
  /// since `started_at_ms`). Fields `spec` lacks are ignored; those of another kind (a
  /// number where `spec` has a clock), counting the other way, or with a value that does
  /// not fit are skipped and named in `skipped`.
  /// - Throws: `StateDocumentError` for a payload that is not JSON, or not a state
  ///   document.
  public static func savedState(
    from payload: [UInt8], spec: ScoreboardSpec, at now: Instant, wallClockMilliseconds: Int64
  ) throws(StateDocumentError) -> MirroredState {
    let document: JSONValue
    do throws(JSONError) {
      document = try JSONValue.parse(payload)
    } catch {
      throw StateDocumentError(problem: .malformed(error))
    }
    guard document.members != nil else {
      throw StateDocumentError(problem: .notAnObject("the document"))
    }
    guard let fieldsValue = document["fields"] else {
      throw StateDocumentError(problem: .missing("fields"))
    }
    guard let fields = fieldsValue.members else {
      throw StateDocumentError(problem: .notAnObject("fields"))
    }
    var state = SavedState()
    var skipped: [String] = []
    for member in fields {
      let entry = try Entry(member.value, field: member.key)
      guard let field = spec.field(named: member.key) else { continue }
      let taken = take(
        entry, field: field, into: &state, at: now, wallClockMilliseconds: wallClockMilliseconds)
      if !taken {
        skipped.append(member.key)
      }
    }
    state.brightness = try optional("brightness", in: document, expected: "an integer") {
      $0.intValue.map { Int(clamping: $0) }
    }
    state.isBlanked = try optional("blank", in: document, expected: "true or false") {
      $0.boolValue
    }
    state.finishedPeriods = try finishedPeriods(in: document, spec: spec)
    state.finishedSets = try finishedSets(in: document, spec: spec)
    return MirroredState(state: state, skipped: skipped)
  }

  /// The periods ended of a document's `periods` (all but the last, the one being
  /// played), with their totals in the order of `spec`'s period field's `scores`.
  private static func finishedPeriods(in document: JSONValue, spec: ScoreboardSpec)
    throws(StateDocumentError) -> [SavedState.Period]
  {
    guard let member = document["periods"] else { return [] }
    guard case .array(let items) = member, items.count <= SavedState.maximumPeriods + 1 else {
      throw StateDocumentError(
        problem: .wrongType(
          "periods", expected: "an array of at most \(SavedState.maximumPeriods + 1) periods"))
    }
    let scores = spec.periodField.flatMap { spec.fields[$0].periodScores } ?? []
    var periods: [SavedState.Period] = []
    for item in items.dropLast() {
      guard let period = item["period"]?.stringValue, let totals = item["totals"],
        totals.members != nil
      else {
        throw StateDocumentError(
          problem: .wrongType(
            "periods", expected: "periods each with a \"period\" and its \"totals\""))
      }
      var values: [Int] = []
      for name in scores {
        guard let value = totals[name]?.intValue, (0...Int64(Int32.max)).contains(value) else {
          throw StateDocumentError(
            problem: .wrongType("periods", expected: "a total for \(name), 0 or more"))
        }
        values.append(Int(value))
      }
      periods.append(SavedState.Period(period: period, totals: values))
    }
    return periods
  }

  /// The points of the sets won of a document's `sets`, the teams in the order of
  /// `spec`'s set scoring.
  private static func finishedSets(in document: JSONValue, spec: ScoreboardSpec)
    throws(StateDocumentError) -> [[Int]]
  {
    guard let member = document["sets"], let rules = spec.sets else { return [] }
    guard case .array(let items) = member, items.count <= SavedState.maximumPeriods else {
      throw StateDocumentError(
        problem: .wrongType(
          "sets", expected: "an array of at most \(SavedState.maximumPeriods) sets"))
    }
    var sets: [[Int]] = []
    for item in items {
      var points: [Int] = []
      for name in rules.points {
        guard let value = item[name]?.intValue, (0...Int64(Int32.max)).contains(value) else {
          throw StateDocumentError(
            problem: .wrongType("sets", expected: "sets each with the points of \(name), 0 or more")
          )
        }
        points.append(Int(value))
      }
      sets.append(points)
    }
    return sets
  }

  /// The same, from a payload as text.
  public static func savedState(
    from payload: String, spec: ScoreboardSpec, at now: Instant, wallClockMilliseconds: Int64
  ) throws(StateDocumentError) -> MirroredState {
    try savedState(
      from: Array(payload.utf8), spec: spec, at: now, wallClockMilliseconds: wallClockMilliseconds)
  }

  /// Puts `entry` into `state` when it fits `field`; false when it does not.
  private static func take(
    _ entry: Entry, field: FieldSpec, into state: inout SavedState, at now: Instant,
    wallClockMilliseconds: Int64
  ) -> Bool {
    switch (entry, field.kind) {
    case (.number(let number), .number):
      guard let value = Int(exactly: number), let fitting = field.value(parsing: String(value))
      else { return false }
      state.values[field.name] = field.text(of: fitting)
    case (.option(let text), .list):
      guard let index = field.value(parsing: text) else { return false }
      state.values[field.name] = field.text(of: index)
    case (.penalties(let list), .penalties(let format)):
      guard list.allSatisfy({ (0...format.largestPlayer).contains($0.player) }) else {
        return false
      }
      state.penalties[field.name] = list
    case (.clock(let clock), .clock(let format)):
      guard clock.counts == format.direction else { return false }
      if let played = clock.playedMilliseconds {
        // The game time played where this clock shows its start: the penalties count it.
        let elapsed =
          format.direction == .down
          ? format.length - .milliseconds(clock.timeMilliseconds)
          : .milliseconds(clock.timeMilliseconds)
        state.played[field.name] = .milliseconds(played) - elapsed
      }
      let startedAt = clock.startedAtMilliseconds.map { start in
        let (elapsed, overflow) = wallClockMilliseconds.subtractingReportingOverflow(start)
        let sinceStart: Duration =
          overflow ? .nanoseconds(start > 0 ? Int64.min : Int64.max) : .milliseconds(elapsed)
        return now - sinceStart
      }
      let time = startedAt == nil ? clock.timeMilliseconds : clock.timeAtStartMilliseconds
      state.clocks[field.name] = ClockState(
        time: min(.milliseconds(time), format.length), startedAt: startedAt)
    default:
      return false
    }
    return true
  }

  /// Member `key` of the document read by `read`; nil when it is missing or null.
  private static func optional<Value>(
    _ key: String, in document: JSONValue, expected: String, _ read: (JSONValue) -> Value?
  ) throws(StateDocumentError) -> Value? {
    guard let value = document[key], !value.isNull else { return nil }
    guard let read = read(value) else {
      throw StateDocumentError(problem: .wrongType(key, expected: expected))
    }
    return read
  }

  /// One field of a document, as its members say: a number, a list's option or a clock.
  private enum Entry {
    case number(Int64)
    case option(String)
    case clock(Clock)
    case penalties([Penalty])

    struct Clock {
      var timeMilliseconds: Int64
      var timeAtStartMilliseconds: Int64
      var startedAtMilliseconds: Int64?
      var counts: ClockFormat.Direction
      /// The game time played at `timeMilliseconds`, on a board with penalties.
      var playedMilliseconds: Int64?
    }

    init(_ value: JSONValue, field: String) throws(StateDocumentError) {
      func error(_ problem: StateDocumentError.Problem) -> StateDocumentError {
        StateDocumentError(field: field, problem: problem)
      }
      guard value.members != nil else { throw error(.notAnObject("the field")) }
      if let clock = value["clock"] {
        guard clock.members != nil else { throw error(.notAnObject("clock")) }
        func milliseconds(_ key: String) throws(StateDocumentError) -> Int64 {
          guard let member = clock[key] else { throw error(.missing(key)) }
          guard let value = member.intValue, value >= 0 else {
            throw error(.wrongType(key, expected: "a whole number of milliseconds, 0 or more"))
          }
          return value
        }
        guard let running = clock["running"] else { throw error(.missing("running")) }
        guard let isRunning = running.boolValue else {
          throw error(.wrongType("running", expected: "true or false"))
        }
        var startedAt: Int64?
        if isRunning {
          guard let start = clock["started_at_ms"] else { throw error(.missing("started_at_ms")) }
          guard let value = start.intValue else {
            throw error(.wrongType("started_at_ms", expected: "an integer"))
          }
          startedAt = value
        }
        guard let counts = clock["counts"] else { throw error(.missing("counts")) }
        guard let direction = counts.stringValue.flatMap(ClockFormat.Direction.init(rawValue:))
        else { throw error(.wrongType("counts", expected: "\"down\" or \"up\"")) }
        var played: Int64?
        if let member = value["played_ms"] {
          guard let milliseconds = member.intValue, milliseconds >= 0 else {
            throw error(
              .wrongType("played_ms", expected: "a whole number of milliseconds, 0 or more"))
          }
          played = milliseconds
        }
        self = .clock(
          Clock(
            timeMilliseconds: try milliseconds("time_ms"),
            timeAtStartMilliseconds: try milliseconds("time_at_start_ms"),
            startedAtMilliseconds: startedAt, counts: direction, playedMilliseconds: played))
        return
      }
      if let penalties = value["penalties"] {
        guard case .array(let items) = penalties, items.count <= PenaltyFormat.maximumCount else {
          throw error(
            .wrongType(
              "penalties", expected: "an array of at most \(PenaltyFormat.maximumCount) penalties"))
        }
        var list: [Penalty] = []
        for item in items {
          func number(_ key: String, optional: Bool = false) throws(StateDocumentError) -> Int64? {
            guard let member = item[key], member != .null else {
              if optional { return nil }
              throw error(.missing("penalties: " + key))
            }
            guard let value = member.intValue, value >= 0 else {
              throw error(.wrongType("penalties: " + key, expected: "a whole number, 0 or more"))
            }
            return value
          }
          guard item.members != nil else { throw error(.notAnObject("a penalty")) }
          let player = try number("player")!
          let length = try number("length_ms")!
          guard player <= 999, length > 0 else {
            throw error(.wrongType("penalties", expected: "players up to 999 and lengths over 0"))
          }
          list.append(
            Penalty(
              player: Int(player), length: .milliseconds(length),
              givenAt: .milliseconds(try number("given_ms")!),
              endedAt: try number("ended_ms", optional: true).map { .milliseconds($0) }))
        }
        self = .penalties(list)
        return
      }
      guard let member = value["value"] else { throw error(.missing("value")) }
      switch member {
      case .string(let text):
        self = .option(text)
      case .number:
        guard let number = member.intValue else {
          throw error(.wrongType("value", expected: "an integer"))
        }
        self = .number(number)
      default:
        throw error(.wrongType("value", expected: "an integer or a string"))
      }
    }
  }
}
