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
/// bonus has its `bonus` level (0: none, 1: the bonus, 2: the double bonus). A clock's start is given on
/// the wall clock (milliseconds since 1970), so a subscriber can run the clock itself:
/// its time is `time_at_start_ms` minus (counting down) or plus (counting up) the time
/// since `started_at_ms`, stopping at `end_ms`.
public enum StateDocument {
  /// The document of `board` at `now`, when the wall clock reads `wallClockMilliseconds`.
  /// Clocks that reached their end by `now` are stopped there.
  public static func json(of board: Scoreboard, at now: Instant, wallClockMilliseconds: Int64)
    -> String
  {
    var board = board.settled
    _ = board.advance(to: now)
    var fields: [(key: String, json: String)] = []
    for (index, field) in board.spec.fields.enumerated() {
      var members: [(key: String, json: String)] = []
      switch field.kind {
      case .number:
        members = [
          ("shown", JSONText.string(field.text(of: board.values[index]))),
          ("value", String(board.values[index])),
        ]
        if field.teamFouls?.bonus.isEmpty == false {
          members.append(("bonus", String(board.bonusLevel(of: index))))
        }
      case .list:
        let text = field.text(of: board.values[index])
        members = [("shown", JSONText.string(text)), ("value", JSONText.string(text))]
      case .clock(let format):
        let clock = board.clocks[index] ?? ClockState(time: format.startTime)
        let time = clock.time(at: now, format: format)
        members = [
          ("shown", JSONText.string(format.text(time))),
          (
            "clock",
            clockJSON(
              clock, time: time, format: format, at: now,
              wallClockMilliseconds: wallClockMilliseconds)
          ),
        ]
      }
      fields.append((field.name, JSONText.object(members)))
    }
    return JSONText.object([
      ("fields", JSONText.object(fields)),
      ("brightness", String(board.brightness)),
      ("blank", board.isBlanked ? "true" : "false"),
      ("published_at_ms", String(wallClockMilliseconds)),
    ])
  }

  /// `{"time_ms":...,"running":...,"started_at_ms":...,...}` of one clock.
  private static func clockJSON(
    _ clock: ClockState, time: Duration, format: ClockFormat, at now: Instant,
    wallClockMilliseconds: Int64
  ) -> String {
    let startedAt = clock.startedAt.map { start in
      let (wallStart, overflow) = wallClockMilliseconds.subtractingReportingOverflow(
        (now - start).milliseconds)
      return overflow ? (start > now ? Int64.max : Int64.min) : wallStart
    }
    return JSONText.object([
      ("time_ms", String(time.milliseconds)),
      ("running", clock.isRunning ? "true" : "false"),
      ("started_at_ms", startedAt.map { String($0) } ?? "null"),
      ("time_at_start_ms", String(clock.time.milliseconds)),
      ("counts", JSONText.string(format.direction.rawValue)),
      ("end_ms", String(format.endTime.milliseconds)),
    ])
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
    return MirroredState(state: state, skipped: skipped)
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
    case (.clock(let clock), .clock(let format)):
      guard clock.counts == format.direction else { return false }
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

    struct Clock {
      var timeMilliseconds: Int64
      var timeAtStartMilliseconds: Int64
      var startedAtMilliseconds: Int64?
      var counts: ClockFormat.Direction
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
        self = .clock(
          Clock(
            timeMilliseconds: try milliseconds("time_ms"),
            timeAtStartMilliseconds: try milliseconds("time_at_start_ms"),
            startedAtMilliseconds: startedAt, counts: direction))
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
