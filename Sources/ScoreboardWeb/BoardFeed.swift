import ScoreboardCore
import ScoreboardMQTT

/// What the web pages read: the board's layout (its fields in order, with their labels
/// and how each clock shows its time), its state (the MQTT state document), the fields as
/// vMix reads a data source, and the Server-Sent Events that carry all of it.
public enum BoardFeed {
  /// `{"name":...,"fields":[{"name":"home","label":"HOME","digits":2,"kind":"number",
  /// "min":0,"max":99,"entry":"overwrite",...}, {"name":"game","kind":"clock",
  /// "minutes":true,"tenths_below_ms":60000,...}, ...],"horns":[{"name":"main"}],
  /// "brightness_levels":16}`: what the pages need to draw and to edit each field.
  public static func layout(of spec: ScoreboardSpec, name: String) -> String {
    let fields = spec.fields.map { field -> String in
      var members: [(key: String, json: String)] = [
        ("name", JSONText.string(field.name)), ("label", JSONText.string(field.label)),
        ("digits", String(field.width)),
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
      }
      return JSONText.object(members)
    }
    let horns = spec.horns.map { JSONText.object([("name", JSONText.string($0.name))]) }
    return JSONText.object([
      ("name", JSONText.string(name)), ("fields", JSONText.array(fields)),
      ("horns", JSONText.array(horns)), ("brightness_levels", String(Action.maximumBrightness + 1)),
    ])
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
