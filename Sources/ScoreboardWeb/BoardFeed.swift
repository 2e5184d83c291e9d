import ScoreboardCore
import ScoreboardMQTT

/// What the web pages read: the board's layout (its fields in order, with their labels
/// and how each clock shows its time), its state (the MQTT state document), the fields as
/// vMix reads a data source, and the Server-Sent Events that carry all of it.
public enum BoardFeed {
  /// `{"name":...,"fields":[{"name":"home","label":"HOME","digits":2,"kind":"number",
  /// "min":0,"max":99,"entry":"overwrite",...}, {"name":"game","kind":"clock",
  /// "minutes":true,"tenths_below_ms":60000,...}, ...],"horns":[{"name":"main"}],
  /// "brightness_levels":16}`: what the pages need to draw and to edit each field. The
  /// field that counts the periods has `"counts_periods":true`, a team-fouls field its
  /// `"bonus"` thresholds, a field of timeouts left its team (`"timeouts_of":"home"`), a
  /// penalties field its team, slots and the lengths offered.
  public static func layout(of spec: ScoreboardSpec, name: String) -> String {
    let fields = spec.fields.map { field -> String in
      var members: [(key: String, json: String)] = [
        ("name", JSONText.string(field.name)), ("label", JSONText.string(field.label)),
        ("digits", String(field.width)), ("display", JSONText.string(field.display)),
        ("position", String(field.position)),
      ]
      switch field.kind {
      case .number(let format):
        members += [
          ("kind", JSONText.string("number")), ("min", String(format.minimum)),
          ("max", String(format.maximum)), ("entry", JSONText.string(format.entry.rawValue)),
          ("placeholder", JSONText.string(format.placeholder.rawValue)),
          ("commit_on_last_digit", format.commitOnLastDigit ? "true" : "false"),
        ]
      case .list(let values):
        members += [
          ("kind", JSONText.string("list")),
          ("values", JSONText.array(values.map(JSONText.string))),
        ]
      case .clock(let format):
        members += [
          ("kind", JSONText.string("clock")),
          ("minutes", format.role == .game ? "true" : "false"),
          ("tenths_below_ms", String(format.tenthsBelow.milliseconds)),
          ("length_ms", String(format.length.milliseconds)),
          ("counts", JSONText.string(format.direction.rawValue)),
          ("entry", JSONText.string(format.entry.rawValue)),
          ("commit_on_last_digit", format.commitOnLastDigit ? "true" : "false"),
          ("resets_ms", JSONText.array(format.resets.map { String($0.milliseconds) })),
          ("follows", format.follows.map(JSONText.string) ?? "null"),
        ]
      case .penalties(let format):
        members += [
          ("kind", JSONText.string("penalties")), ("team", JSONText.string(format.team)),
          ("slots", String(format.slots)), ("player_digits", String(format.playerDigits)),
          ("time_digits", String(format.timeDigits)),
          ("lengths_ms", JSONText.array(format.lengths.map { String($0.milliseconds) })),
        ]
      }
      if field.periodLengths != nil {
        members.append(("counts_periods", "true"))
      }
      if let bonus = field.teamFouls?.bonus, !bonus.isEmpty {
        members.append(("bonus", JSONText.array(bonus.map(String.init))))
      }
      if let team = field.timeouts?.team {
        members.append(("timeouts_of", JSONText.string(team)))
      }
      if let rules = spec.sets, let index = rules.sets.firstIndex(of: field.name),
        rules.points.indices.contains(index)
      {
        // The sets won of the team whose points are that field.
        members.append(("sets_of", JSONText.string(rules.points[index])))
      }
      return JSONText.object(members)
    }
    let horns = spec.horns.map { JSONText.object([("name", JSONText.string($0.name))]) }
    let displays = spec.displays.map { display in
      JSONText.object([
        ("name", JSONText.string(display.name)), ("cells", String(display.cellCount)),
        (
          "indicators",
          JSONText.array(
            display.indicators.map {
              $0.map { JSONText.string(describe($0, spec: spec)) } ?? "null"
            })
        ),
      ])
    }
    return JSONText.object([
      ("name", JSONText.string(name)), ("fields", JSONText.array(fields)),
      ("displays", JSONText.array(displays)), ("horns", JSONText.array(horns)),
      ("brightness_levels", String(Action.maximumBrightness + 1)),
    ])
  }

  /// An indicator in words: `home 1`, `game running`, `home-fouls bonus`,
  /// `home-fouls bonus 2`.
  private static func describe(_ indicator: Indicator, spec: ScoreboardSpec) -> String {
    switch indicator {
    case .value(let field, let value):
      "\(field) \(spec.field(named: field)?.text(of: value) ?? String(value))"
    case .running(let clock):
      "\(clock) running"
    case .bonus(let field, let level):
      "\(field) bonus" + (level == 1 ? "" : " \(level)")
    case .powerPlay(let field):
      "\(field) power play"
    }
  }

  /// The board's displays as their frames have them at `now`: each cell's segments
  /// (bit 0 = a ... bit 6 = g, bit 7 = the point), the cells followed by a colon, whether
  /// it is blanked, its brightness and indicators; and whether each horn sounds.
  /// `{"displays":{"score":{"cells":[6,91,0,63],"colons":[],"blank":false,
  /// "brightness":10,"indicators":[true]}},"horns":{"main":false}}`.
  ///
  /// `steady` is the same frames with the cells and colons of running clocks left out,
  /// and the horns: the pages run the clocks themselves, so a new document is due only
  /// when `steady` changes.
  public static func frames(of board: Scoreboard, at now: Instant) -> (
    json: String, steady: SteadyFrames
  ) {
    var steady: [Frame] = []
    var displays: [(key: String, json: String)] = []
    for display in board.spec.displays {
      let frame = Renderer.frame(of: board, display: display, at: now, withTexts: false)
      displays.append(
        (
          display.name,
          JSONText.object([
            ("cells", JSONText.array(frame.cells.map { String($0.rawValue) })),
            ("colons", JSONText.array((frame.colons ?? []).map(String.init))),
            ("blank", frame.isBlank ? "true" : "false"), ("brightness", String(frame.brightness)),
            ("indicators", JSONText.array(frame.indicators.map { $0 ? "true" : "false" })),
          ])
        ))
      steady.append(still(frame, of: display, on: board))
    }
    let sounding = board.spec.horns.indices.map { board.hornIsSounding($0, at: now) }
    let horns = zip(board.spec.horns, sounding).map { (key: $0.name, json: $1 ? "true" : "false") }
    return (
      JSONText.object([("displays", JSONText.object(displays)), ("horns", JSONText.object(horns))]),
      SteadyFrames(frames: steady, horns: sounding)
    )
  }

  /// `frames(of:at:)`'s `steady` alone, without the document.
  public static func steadyFrames(of board: Scoreboard, at now: Instant) -> SteadyFrames {
    SteadyFrames(
      frames: board.spec.displays.map { display in
        still(
          Renderer.frame(of: board, display: display, at: now, withTexts: false), of: display,
          on: board)
      },
      horns: board.spec.horns.indices.map { board.hornIsSounding($0, at: now) })
  }

  /// `frame` of `display` without the cells and colons of the clocks that run.
  private static func still(_ frame: Frame, of display: DisplayLayout, on board: Scoreboard)
    -> Frame
  {
    var still = frame
    for (index, field) in board.spec.fields.enumerated()
    where field.display == display.name && board.clocks[index]?.isRunning == true {
      for cell in field.cells where still.cells.indices.contains(cell) {
        still.cells[cell] = .blank
      }
      still.colons = still.colons?.filter { !field.cells.contains($0) }
    }
    return still
  }

  /// What the pages cannot work out by themselves from the frames they have: the frames
  /// without running clocks, and the horns.
  public struct SteadyFrames: Equatable, Sendable {
    public var frames: [Frame]
    public var horns: [Bool]
  }

  /// The fields as one row of a vMix data source: `[{"home":"12","game":"9:58",...}]`,
  /// each as its digits show it at `now`.
  public static func vmix(of board: Scoreboard, at now: Instant) -> String {
    var board = board.settled
    _ = board.advance(to: now)
    let members = board.spec.fields.indices.map { index -> (key: String, json: String) in
      let field = board.spec.fields[index]
      let text =
        if case .clock(let format) = field.kind, let clock = board.clocks[index] {
          format.text(clock.time(at: now, format: format))
        } else {
          field.text(of: board.values[index])
        }
      return (field.name, JSONText.string(text))
    }
    return JSONText.array([JSONText.object(members)])
  }

  /// One Server-Sent Event: `event: NAME`, the data's lines, an empty line.
  public static func event(_ name: String, data: String) -> [UInt8] {
    var text = "event: \(name)\n"
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
      text += "data: \(line)\n"
    }
    return Array((text + "\n").utf8)
  }

  /// A comment line that keeps a quiet stream open through proxies and shows a client
  /// that is gone.
  public static let keepAlive = Array(": keep-alive\n\n".utf8)
}
