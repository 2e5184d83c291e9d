import ScoreboardCore

/// Writes a board's state document (`StateDocument`) again and again, rewriting only the
/// fields whose part changed since the last document: a score's change rewrites that
/// score's few bytes, and the other fields' parts are copied as they were written.
///
/// A field's part is kept with what it was written from (its value, a clock's times), and
/// written again when that differs; a penalties field's part is written every time. A
/// board with other fields than the last one (a reload) starts afresh.
public struct StateDocumentWriter {
  /// The fields the kept parts were written for.
  private var fields: [FieldSpec] = []
  /// Each field's `"name":{...}`, with what it was written from; nil until written.
  private var parts: [Part?] = []
  /// The last document: its storage is written over by the next one.
  private var document: [UInt8] = []

  /// A writer that has written nothing yet.
  public init() {}

  /// The document of `board` at `now`, when the wall clock reads `wallClockMilliseconds`,
  /// as UTF-8. Clocks that reached their end by `now` are stopped there.
  public mutating func bytes(
    of board: Scoreboard, at now: Instant, wallClockMilliseconds: Int64
  ) -> [UInt8] {
    // Only a running clock changes what the document says by itself (its end, the
    // penalties it serves): a board without one is written as it is, not copied.
    if board.hasRunningClock {
      var advanced = board.settled
      _ = advanced.advance(to: now)
      write(advanced, at: now, wallClockMilliseconds: wallClockMilliseconds)
    } else {
      write(board, at: now, wallClockMilliseconds: wallClockMilliseconds)
    }
    return document
  }

  /// Writes the document of `board`, advanced to `now`, into `document`.
  private mutating func write(_ board: Scoreboard, at now: Instant, wallClockMilliseconds: Int64) {
    if board.spec.fields != fields {
      fields = board.spec.fields
      parts = Array(repeating: nil, count: fields.count)
    }
    let hasPenalties = board.penalties.contains { $0 != nil }
    document.removeAll(keepingCapacity: true)
    document.append(contentsOf: Self.opening)
    for index in fields.indices {
      let source = Source(
        of: board, field: index, at: now, wallClockMilliseconds: wallClockMilliseconds,
        hasPenalties: hasPenalties)
      if index > 0 {
        document.append(UInt8(ascii: ","))
      }
      if let part = parts[index], let source, part.source == source {
        document.append(contentsOf: part.json)
        continue
      }
      var json = JSONText.string(fields[index].name) + ":"
      if let source {
        write(source, of: fields[index], into: &json)
      } else {
        Self.writePenalties(index, of: board, at: now, into: &json)
      }
      let bytes = Array(json.utf8)
      parts[index] = source.map { Part(source: $0, json: bytes) }
      document.append(contentsOf: bytes)
    }
    document.append(UInt8(ascii: "}"))
    if let periods = Self.periodsJSON(board) {
      document.append(contentsOf: ",\"periods\":\(periods)".utf8)
    }
    if let rules = board.spec.sets {
      // The points of each set won, by team: a volleyball box score.
      let sets = JSONText.array(
        board.finishedSets.map { set in
          JSONText.object(zip(rules.points, set).map { ($0, String($1)) })
        })
      document.append(contentsOf: ",\"sets\":\(sets)".utf8)
    }
    document.append(contentsOf: Self.brightness)
    document.appendDecimal(Int64(board.brightness))
    document.append(contentsOf: board.isBlanked ? Self.blanked : Self.notBlanked)
    document.append(contentsOf: Self.publishedAt)
    document.appendDecimal(wallClockMilliseconds)
    document.append(UInt8(ascii: "}"))
  }

  // The document's fixed pieces, as bytes made once.
  private static let opening = Array(#"{"fields":{"#.utf8)
  private static let brightness = Array(#","brightness":"#.utf8)
  private static let blanked = Array(#","blank":true"#.utf8)
  private static let notBlanked = Array(#","blank":false"#.utf8)
  private static let publishedAt = Array(#","published_at_ms":"#.utf8)

  /// The same document as text.
  public mutating func json(
    of board: Scoreboard, at now: Instant, wallClockMilliseconds: Int64
  ) -> String {
    String(
      decoding: bytes(of: board, at: now, wallClockMilliseconds: wallClockMilliseconds),
      as: UTF8.self)
  }

  /// One field's part of the document, and what it was written from.
  private struct Part {
    var source: Source
    /// `"name":{...}`, as UTF-8.
    var json: [UInt8]
  }

  /// What a field's part is written from, besides the field's configuration: equal
  /// sources give the same text.
  private enum Source: Equatable {
    case number(value: Int, bonus: Int?)
    case list(value: Int)
    case clock(
      time: Duration, startedAtMilliseconds: Int64?, timeAtStart: Duration, played: Duration?)

    /// The source of field `index` of `board` at `now`; nil for a field whose part is
    /// written every time (penalties).
    init?(
      of board: Scoreboard, field index: Int, at now: Instant, wallClockMilliseconds: Int64,
      hasPenalties: Bool
    ) {
      let field = board.spec.fields[index]
      switch field.kind {
      case .number:
        let bonus = field.teamFouls?.bonus.isEmpty == false ? board.bonusLevel(of: index) : nil
        self = .number(value: board.values[index], bonus: bonus)
      case .list:
        self = .list(value: board.values[index])
      case .clock(let format):
        let clock = board.clocks[index] ?? ClockState(time: format.startTime)
        self = .clock(
          time: clock.time(at: now, format: format),
          startedAtMilliseconds: StateDocumentWriter.wallClockStart(
            of: clock, at: now, wallClockMilliseconds: wallClockMilliseconds),
          timeAtStart: clock.time,
          played: hasPenalties ? board.played(index, at: now) : nil)
      case .penalties:
        return nil
      }
    }
  }

  /// Appends the `{...}` of `field` written from `source` to `json`: what the part is
  /// kept with is all it is written from.
  private func write(_ source: Source, of field: FieldSpec, into json: inout String) {
    switch source {
    case .number(let value, let bonus):
      json += "{\"shown\":" + JSONText.string(field.text(of: value))
      json += ",\"value\":" + String(value)
      if let bonus {
        json += ",\"bonus\":" + String(bonus)
      }
      json += "}"
    case .list(let value):
      let shown = JSONText.string(field.text(of: value))
      json += "{\"shown\":" + shown + ",\"value\":" + shown + "}"
    case .clock(let time, let startedAtMilliseconds, let timeAtStart, let played):
      // A clock's source is only ever taken from a clock field.
      guard let format = field.clockFormat else { return }
      json += "{\"shown\":" + JSONText.string(format.text(time))
      json += ",\"clock\":{\"time_ms\":" + String(time.milliseconds)
      json += startedAtMilliseconds == nil ? ",\"running\":false" : ",\"running\":true"
      json += ",\"started_at_ms\":" + (startedAtMilliseconds.map { String($0) } ?? "null")
      json += ",\"time_at_start_ms\":" + String(timeAtStart.milliseconds)
      json += ",\"counts\":" + JSONText.string(format.direction.rawValue)
      json += ",\"end_ms\":" + String(format.endTime.milliseconds) + "}"
      if let played {
        // Where the clock stands, as game time played (which penalties count).
        json += ",\"played_ms\":" + String(played.milliseconds)
      }
      json += "}"
    }
  }

  /// Appends penalties field `index`'s `{...}` to `json`.
  private static func writePenalties(
    _ index: Int, of board: Scoreboard, at now: Instant, into json: inout String
  ) {
    let shown = Renderer.penaltySlotTexts(of: board, field: index, at: now)
    json += "{\"shown\":" + JSONText.string(shown.joined(separator: " "))
    json += ",\"penalties\":" + penaltiesJSON(board, field: index, at: now)
    if let clock = board.penaltyClock(of: index) {
      json += ",\"game_clock\":" + JSONText.string(board.spec.fields[clock].name)
    }
    json += "}"
  }

  /// The scores by period, when the period field keeps them: each period ended, then the
  /// one being played, as `{"period":"1","points":{"home":25,"away":20},
  /// "totals":{"home":25,"away":20}}` (the points scored in it, the totals at its end or
  /// now).
  private static func periodsJSON(_ board: Scoreboard) -> String? {
    guard let index = board.spec.periodField, let scores = board.spec.fields[index].periodScores
    else { return nil }
    let field = board.spec.fields[index]
    let current = scores.map { name in board.index(of: name).map { board.values[$0] } ?? 0 }
    let totals = board.finishedPeriods.map(\.totals) + [current]
    return JSONText.array(
      zip(board.scoresByPeriod, totals).map { entry, totals in
        JSONText.object([
          ("period", JSONText.string(field.text(of: entry.period))),
          ("points", JSONText.object(zip(scores, entry.points).map { ($0, String($1)) })),
          ("totals", JSONText.object(zip(scores, totals).map { ($0, String($1)) })),
        ])
      })
  }

  /// The open penalties of penalties field `index`, in the order they serve: each
  /// `{"player":17,"length_ms":120000,"remaining_ms":95000,"state":"serving",
  /// "given_ms":...,"ended_ms":null}`, the last two in game time played (the clock's
  /// `played_ms`), for mirrors.
  private static func penaltiesJSON(_ board: Scoreboard, field index: Int, at now: Instant)
    -> String
  {
    JSONText.array(
      board.openPenalties(index, at: now).map { open in
        JSONText.object([
          ("player", String(open.penalty.player)),
          ("length_ms", String(open.penalty.length.milliseconds)),
          ("remaining_ms", String(open.remaining.milliseconds)),
          ("state", JSONText.string(open.phase.rawValue)),
          ("given_ms", String(open.penalty.givenAt.milliseconds)),
          ("ended_ms", open.penalty.endedAt.map { String($0.milliseconds) } ?? "null"),
        ])
      })
  }

  /// When a running clock started, on the wall clock (milliseconds since 1970), pinned
  /// to the extremes when that does not fit; nil for a stopped clock.
  private static func wallClockStart(
    of clock: ClockState, at now: Instant, wallClockMilliseconds: Int64
  ) -> Int64? {
    clock.startedAt.map { start in
      let (wallStart, overflow) = wallClockMilliseconds.subtractingReportingOverflow(
        (now - start).milliseconds)
      return overflow ? (start > now ? Int64.max : Int64.min) : wallStart
    }
  }
}
