import ScoreboardCore

/// Reads a `[field NAME]` section: where the field is shown and what it holds, a number,
/// one of a list of values, or a clock (`type = clock` or `shot-clock`).
struct FieldSectionParser {
  /// A field read without error, with where its position was given, for the checks that
  /// compare fields.
  struct Field {
    var spec: FieldSpec
    /// The section's title, for messages.
    var section: String
    /// The line of `position`.
    var positionLine: Int
    /// The line of `follows`, for a clock that follows another.
    var followsLine: Int = 0
    /// The line of `lengths`, for a field that counts periods.
    var lengthsLine: Int = 0
    /// The line of `scores`, for a field that counts periods and keeps their scores.
    var scoresLine: Int = 0
    /// The line of `takes-over`, for a clock shown in another field's cells.
    var takesOverLine: Int = 0
    /// The line of `break-clock`, for a field that counts periods with breaks.
    var breakClockLine: Int = 0
    /// The line of `period`, for team fouls that a period field sets back.
    var periodLine: Int = 0
    /// The lines of `timeouts-of` and `timeout-clock`, for a field of timeouts left.
    var timeoutsOfLine: Int = 0
    var timeoutClockLine: Int = 0
    /// The lines of `clock` and `ends-on-goal-of`, for a penalties field.
    var clockLine: Int = 0
    var endsOnGoalOfLine: Int = 0
    /// The line of `team`, for a penalties field.
    var teamLine: Int = 0
    /// `resets-at` as written, and its line: the period field's values, read once the
    /// period field is known.
    var resetsAt: (text: String, line: Int)?
  }

  /// The section's keys.
  static let keys = [
    "label", "display", "position", "digits", "values", "min", "max", "placeholder", "entry",
    "commit-on-last-digit", "default", "type", "length", "count", "tenths-below", "resets",
    "follows", "blank-when-less-game-time", "bonus", "period", "resets-at", "resets-to",
    "lengths",
    "timeouts-of", "timeout-clock", "team", "clock", "serving", "slots", "player-digits",
    "time-digits", "ends-on-goal-of", "minor", "scores", "takes-over", "breaks", "break-clock",
  ]

  /// The keys only penalties fields have (`lengths` too, which is the lengths offered).
  static let penaltyKeys = [
    "team", "clock", "serving", "slots", "player-digits", "time-digits", "ends-on-goal-of",
    "minor",
  ]

  /// The keys only clocks have.
  static let clockKeys = [
    "length", "count", "tenths-below", "resets", "follows", "blank-when-less-game-time",
    "takes-over",
  ]

  /// What `type` names.
  private enum FieldType {
    case number, list, clock, shotClock, penalties
  }

  /// The keys only number fields have.
  static let numberKeys = [
    "min", "max", "placeholder", "entry", "commit-on-last-digit", "bonus", "period", "resets-at",
    "resets-to",
    "timeouts-of", "timeout-clock",
  ]

  /// The keys of a number field that counts a team's fouls.
  static let teamFoulKeys = ["bonus", "period", "resets-at", "resets-to"]

  /// What a field holds and how wide it is.
  private struct Content {
    var kind: FieldSpec.Kind
    var width: Int
    /// The value at first start and after a reset (a list field's: an index).
    var defaultValue: Int
    var teamFouls: TeamFoulRules? = nil
    var periodLengths: [Duration]? = nil
    var timeouts: TimeoutRules? = nil
    var periodScores: [String]? = nil
    var breaks: (lengths: [Duration], clock: String)? = nil
  }

  /// A field of timeouts left: `timeouts-of` (the team) and `timeout-clock` (the clock a
  /// timeout starts; checked once every field is read). Nil without `timeouts-of`.
  private func timeouts(reader: inout SectionReader) -> TimeoutRules? {
    let clock = reader.text("timeout-clock", expected: "the name of the timeout's clock")
    guard
      let team = reader.text("timeouts-of", expected: "the team's name in timeout TEAM (home)")
    else {
      if clock != nil {
        reader.report(
          "needs 'timeouts-of', the team whose timeouts the field counts (such as "
            + "timeouts-of = home)", key: "timeout-clock")
      }
      return nil
    }
    guard team.words().count == 1 else {
      reader.report(
        "expected one word, the team's name in timeout TEAM, found \(Listing.found(team))",
        key: "timeouts-of")
      return nil
    }
    return TimeoutRules(team: team, clock: clock)
  }

  /// `scores`: the score fields whose points the period field keeps period by period
  /// (checked once every field is read); it needs `lengths`. Nil without it.
  private func periodScores(reader: inout SectionReader) -> [String]? {
    guard let text = reader.text("scores", expected: "the score fields, such as home away")
    else { return nil }
    let names = text.words()
    guard (1...4).contains(names.count), Set(names).count == names.count else {
      reader.report(
        "expected the score fields whose points are kept period by period, one to four "
          + "different fields (such as home away), found \(Listing.found(text))", key: "scores")
      return nil
    }
    if reader.entry("lengths") == nil {
      reader.report(
        "needs 'lengths': the points of a period are taken when next-period ends it",
        key: "scores")
    }
    return names
  }

  /// `breaks` and `break-clock`: the break after each period and the clock that runs it
  /// (checked once every field is read); they need `lengths` and each other.
  private func breaks(reader: inout SectionReader) -> (lengths: [Duration], clock: String)? {
    let clock = reader.text("break-clock", expected: "the clock that runs the breaks")
    let text = reader.text("breaks", expected: "the break after each period, such as 2:00 15:00")
    guard clock != nil || text != nil else { return nil }
    guard let clock, let text else {
      reader.report(
        "'breaks' and 'break-clock' go together (breaks = 2:00 15:00 2:00, break-clock = "
          + "interval)", key: clock == nil ? "breaks" : "break-clock")
      return nil
    }
    var lengths: [Duration] = []
    for word in text.words() {
      guard let time = ClockText.parse(word), time > .zero, time <= ClockFormat.longest else {
        reader.report(
          "expected the break after each period, times such as 2:00 15:00 2:00 (the last "
            + "for every period after it), found \(Listing.found(word))", key: "breaks")
        return nil
      }
      lengths.append(time)
    }
    if reader.entry("lengths") == nil {
      reader.report("needs 'lengths': a break comes with next-period", key: "breaks")
    }
    return (lengths, clock)
  }

  /// `lengths`: the game clock's length in each period, for a field that counts them;
  /// nil when the field has none. That they fit the game clock is checked once every
  /// field is read.
  private func periodLengths(valueCount: Int, reader: inout SectionReader) -> [Duration]? {
    guard
      let text = reader.text(
        "lengths", expected: "the game clock's length in each period, such as 10:00 5:00")
    else { return nil }
    var lengths: [Duration] = []
    for word in text.words() {
      guard let time = ClockText.parse(word), time > .zero, time <= ClockFormat.longest else {
        reader.report(
          "expected the game clock's length in each period, times such as 10:00 10:00 "
            + "10:00 10:00 5:00 (the last for every period after it), found "
            + Listing.found(word), key: "lengths")
        return nil
      }
      lengths.append(time)
    }
    guard lengths.count <= valueCount else {
      reader.report(
        "expected at most \(valueCount) lengths, one for each of the field's values, found "
          + "\(lengths.count)", key: "lengths")
      return nil
    }
    return lengths
  }

  /// The displays fields may be on.
  let displays: KnownDisplays

  /// The field, or nil when something in the section is wrong.
  func parse(name: String, reader: inout SectionReader) -> Field? {
    reader.reportUnknownKeys(known: Self.keys)
    // A clock that takes over another field's cells has none of its own.
    let takesOver = reader.text("takes-over", expected: "the field whose cells it takes")
    if takesOver == nil {
      reader.require("position")
    } else {
      for key in ["display", "position"] where reader.entry(key) != nil {
        reader.report(
          "a clock that takes over another field's cells has none of its own; leave out "
            + "display and position", key: key)
      }
    }
    let label = reader.text("label", expected: "a label") ?? name.uppercased()
    let display = takesOver == nil ? reader.displayName(among: displays) : ""
    let position =
      takesOver == nil
      ? reader.integer("position", in: 1...DisplaySectionParser.maximumCellCount) : 1
    let digits = reader.integer("digits", in: 1...NumberFormat.maximumDigits)
    let type = reader.choice(
      "type",
      names: [
        ("number", FieldType.number), ("list", .list), ("clock", .clock),
        ("shot-clock", .shotClock), ("penalties", .penalties),
      ])
    let content: Content?
    switch type ?? (reader.entry("values") == nil ? .number : .list) {
    case _ where type == nil && reader.entry("type") != nil:
      content = nil  // `type` is wrong, and reported: what the other keys mean is unknown
    case .clock:
      content = clockContent(role: .game, digits: digits, reader: &reader)
    case .shotClock:
      content = clockContent(role: .shot, digits: digits, reader: &reader)
    case .penalties:
      content = penaltiesContent(digits: digits, reader: &reader)
    case .number, .list:
      for key in Self.penaltyKeys where reader.entry(key) != nil {
        reader.report("applies only to penalties fields (type = penalties)", key: key)
      }
      for key in Self.clockKeys where reader.entry(key) != nil {
        reader.report("applies only to clocks (type = clock or shot-clock)", key: key)
      }
      if type == .list, reader.entry("values") == nil {
        reader.require("values")
      }
      content =
        reader.entry("values") == nil
        ? numberContent(digits: digits, reader: &reader)
        : listContent(
          digits: digits,
          alphanumeric: display.flatMap { displays.byName[$0]?.isAlphanumeric } ?? false,
          reader: &reader)
    }
    guard !reader.hasErrors, let display, let position, let content else { return nil }
    var spec = FieldSpec(
      name: name, label: label, display: display, position: position - 1, width: content.width,
      kind: content.kind, defaultValue: content.defaultValue, teamFouls: content.teamFouls,
      periodLengths: content.periodLengths, timeouts: content.timeouts,
      periodScores: content.periodScores)
    spec.takesOver = takesOver
    spec.breakLengths = content.breaks?.lengths
    spec.breakClock = content.breaks?.clock
    if let layout = displays.byName[display], spec.cells.upperBound > layout.cellCount {
      let cells = Listing.cells(position...(position + content.width - 1))
      reader.report(
        "field needs \(cells), but display '\(display)' has \(layout.cellCount) digits",
        key: "position")
      return nil
    }
    return Field(
      spec: spec, section: reader.section.title, positionLine: reader.line(of: "position"),
      followsLine: reader.line(of: "follows"), lengthsLine: reader.line(of: "lengths"),
      scoresLine: reader.line(of: "scores"), takesOverLine: reader.line(of: "takes-over"),
      breakClockLine: reader.line(of: "break-clock"),
      periodLine: reader.line(of: "period"), timeoutsOfLine: reader.line(of: "timeouts-of"),
      timeoutClockLine: reader.line(of: "timeout-clock"), clockLine: reader.line(of: "clock"),
      endsOnGoalOfLine: reader.line(of: "ends-on-goal-of"), teamLine: reader.line(of: "team"),
      resetsAt: reader.entry("resets-at").map { ($0.value, $0.line) })
  }

  /// A number field's format and width, from `digits` and the number keys.
  private func numberContent(digits: Int?, reader: inout SectionReader) -> Content? {
    reader.require("digits")
    let placeholder: NumberFormat.Placeholder? = reader.choice("placeholder")
    let entry: NumberFormat.EntryMode? = reader.choice("entry")
    let commitOnLastDigit = reader.boolean("commit-on-last-digit")
    guard let digits else { return nil }
    let largest = NumberFormat.largest(digits: digits)
    let minimum = reader.integer("min", in: 0...largest) ?? 0
    let maximum = reader.integer("max", in: minimum...largest) ?? largest
    let format = NumberFormat(
      digits: digits, minimum: minimum, maximum: maximum, placeholder: placeholder ?? .blank,
      entry: entry ?? .overwrite, commitOnLastDigit: commitOnLastDigit ?? true)
    let defaultValue = reader.integer("default", in: minimum...maximum) ?? minimum
    return Content(
      kind: .number(format), width: digits, defaultValue: defaultValue,
      teamFouls: teamFouls(minimum: minimum, maximum: maximum, reader: &reader),
      periodLengths: periodLengths(valueCount: maximum - minimum + 1, reader: &reader),
      timeouts: timeouts(reader: &reader), periodScores: periodScores(reader: &reader),
      breaks: breaks(reader: &reader))
  }

  /// A team-fouls field's rules: `bonus` (increasing counts within the field's limits),
  /// `period` (the field's name; checked once every field is read) and `resets-at`
  /// (which needs `period`; read with the period field's values later). Nil when the
  /// field has none of them.
  private func teamFouls(minimum: Int, maximum: Int, reader: inout SectionReader)
    -> TeamFoulRules?
  {
    guard Self.teamFoulKeys.contains(where: { reader.entry($0) != nil }) else { return nil }
    var bonus: [Int] = []
    if let text = reader.text("bonus", expected: "team-foul counts, such as 5, or 7 10") {
      for word in text.words() {
        guard let count = Int(word), count > bonus.last ?? minimum, count <= maximum
        else {
          reader.report(
            "expected team-foul counts from \(minimum + 1) to \(maximum), each more than the "
              + "one before (the bonus, then the double bonus: 7 10), found "
              + Listing.found(word), key: "bonus")
          return nil
        }
        bonus.append(count)
      }
    }
    let period = reader.text("period", expected: "the name of the field that counts periods")
    if reader.entry("resets-at") != nil, reader.entry("period") == nil {
      reader.report(
        "needs 'period', the field whose values it names (such as period = quarter)",
        key: "resets-at")
    }
    var resetsTo: [Int]?
    if let text = reader.text("resets-to", expected: "counts, one for each of resets-at") {
      let counts = text.words().map { Int($0) }
      let atCount = reader.entry("resets-at")?.value.words().count
      guard let atCount, counts.count == atCount,
        counts.allSatisfy({ $0.map { (minimum...maximum).contains($0) } ?? false })
      else {
        reader.report(
          "expected a count from \(minimum) to \(maximum) for each value of 'resets-at' "
            + "(FIBA timeouts: resets-at = 3 5, resets-to = 3 1), found \(Listing.found(text))",
          key: "resets-to")
        return nil
      }
      resetsTo = counts.map { $0! }
    }
    return TeamFoulRules(bonus: bonus, period: period, resetsTo: resetsTo)
  }

  /// A penalties field's format and width: the team, the clock (checked once every field
  /// is read), how many serve at once, the slots shown (each `player-digits` and
  /// `time-digits` cells), the lengths offered, and what a power-play goal ends.
  private func penaltiesContent(digits: Int?, reader: inout SectionReader) -> Content? {
    let own = ["label", "display", "position", "type", "digits", "lengths"] + Self.penaltyKeys
    for key in Self.keys where !own.contains(key) && reader.entry(key) != nil {
      reader.report(
        "applies to \(Self.clockKeys.contains(key) ? "clocks" : "number and list fields"), not "
          + "to penalties (their cells are slots: player-digits and time-digits each)", key: key)
    }
    reader.require("team")
    var team = reader.text("team", expected: "the team's name in penalty add TEAM (home)")
    if let name = team, name.words().count != 1 {
      reader.report(
        "expected one word, the team's name in penalty add TEAM, found \(Listing.found(name))",
        key: "team")
      team = nil
    }
    let clock = reader.text("clock", expected: "the name of the game clock")
    let serving = reader.integer("serving", in: 1...9) ?? 2
    let slots = reader.integer("slots", in: 1...9) ?? 2
    let playerDigits = reader.integer("player-digits", in: 1...3) ?? 2
    let timeDigits = reader.integer("time-digits", in: 3...4) ?? 3
    let longest: Duration = timeDigits == 4 ? ClockFormat.longest : .seconds(599)
    let longestText = ClockText.text(longest, tenths: false, minutes: true)
    var lengths: [Duration] = [.seconds(120)]
    if let text = reader.text("lengths", expected: "penalty lengths, such as 2:00 5:00") {
      lengths = []
      for word in text.words() {
        guard let time = ClockText.parse(word), time > .zero, time <= longest,
          time.nanoseconds % 1_000_000_000 == 0
        else {
          reader.report(
            "expected the penalty lengths the keypad offers, whole seconds up to \(longestText) "
              + "(time-digits = \(timeDigits)), such as 2:00 5:00, found \(Listing.found(word))",
            key: "lengths")
          return nil
        }
        lengths.append(time)
      }
    }
    let endsOnGoalOf = reader.text(
      "ends-on-goal-of", expected: "the other team's score field, such as away")
    var minor: Duration?
    if let text = reader.text("minor", expected: "a penalty length, such as 2:00") {
      if let time = ClockText.parse(text), time > .zero, time <= longest {
        minor = time
      } else {
        reader.report(
          "expected the length of the penalty a power-play goal ends, such as 2:00, found "
            + Listing.found(text), key: "minor")
      }
    }
    if endsOnGoalOf != nil, minor == nil, reader.entry("minor") == nil {
      reader.report(
        "needs 'minor', the length of the penalty a power-play goal ends (such as minor = 2:00)",
        key: "ends-on-goal-of")
    }
    if minor != nil, endsOnGoalOf == nil {
      reader.report(
        "needs 'ends-on-goal-of', the other team's score field (such as ends-on-goal-of = "
          + "away)", key: "minor")
    }
    let width = slots * (playerDigits + timeDigits)
    if let digits, digits != width {
      reader.report(
        "a penalties field's cells are its slots: \(slots) of \(playerDigits) + \(timeDigits) "
          + "cells make \(width); leave 'digits' out, or set slots, player-digits and "
          + "time-digits", key: "digits")
    }
    guard let team, !reader.hasErrors else { return nil }
    return Content(
      kind: .penalties(
        PenaltyFormat(
          team: team, clock: clock, serving: serving, slots: slots, playerDigits: playerDigits,
          timeDigits: timeDigits, lengths: lengths, endsOnGoalOf: endsOnGoalOf, minor: minor)),
      width: width, defaultValue: 0)
  }

  /// A clock's format and width: `digits` (4 for a game clock's `MM:SS`, 2 for a shot
  /// clock's seconds), the period length, which way it counts, tenths, resets and the
  /// clock it follows.
  private func clockContent(role: ClockFormat.Role, digits: Int?, reader: inout SectionReader)
    -> Content?
  {
    for key in ["values", "min", "max", "placeholder", "default"] where reader.entry(key) != nil {
      reader.report(
        "applies to number and list fields, not to a clock (its time starts at 'length', "
          + "or at the first of 'resets')", key: key)
    }
    for key in Self.teamFoulKeys where reader.entry(key) != nil {
      reader.report("applies only to number fields that count team fouls, not to a clock", key: key)
    }
    for key in ["timeouts-of", "timeout-clock"] where reader.entry(key) != nil {
      reader.report(
        "applies only to number fields that count a team's timeouts left, not to a clock",
        key: key)
    }
    for key in ["lengths", "scores", "breaks", "break-clock"] where reader.entry(key) != nil {
      reader.report(
        "applies to the field that counts the periods (such as [field quarter]), not to a "
          + "clock" + (key == "lengths" ? " (its time starts at 'length')" : ""), key: key)
    }
    let kind = role == .game ? "a game clock" : "a shot clock"
    let fewest = role == .game ? 4 : 2
    let width = digits ?? fewest
    if width < fewest {
      reader.report(
        "expected at least \(fewest) digits for \(kind) (\(role == .game ? "MM:SS" : "SS")), "
          + "found \(width)", key: "digits")
    }
    let direction: ClockFormat.Direction = reader.choice("count") ?? .down
    let entry: NumberFormat.EntryMode = reader.choice("entry") ?? .shift
    let commitOnLastDigit = reader.boolean("commit-on-last-digit") ?? true
    let longest = role == .game ? ClockFormat.longest : .seconds(99)
    var resets: [Duration] = []
    if let text = reader.text("resets", expected: "times separated by spaces, such as 24 14") {
      for word in text.words() {
        guard let time = ClockText.parse(word), time > .zero, time <= longest else {
          reader.report(
            "expected times from 0.1 to \(Self.text(longest, role: role)) "
              + "separated by spaces, such as 24 14, found \(Listing.found(word))", key: "resets")
          continue
        }
        resets.append(time)
      }
    }
    var length = clockTime("length", longest: longest, role: role, reader: &reader)
    if reader.entry("length") == nil {
      if let largest = resets.max() {
        length = largest
      } else {
        reader.report(
          "missing required key 'length', the period length (such as length = 10:00)"
            + (role == .shot ? ", or 'resets' (such as resets = 24 14)" : ""))
      }
    }
    if let length, let largest = resets.max(), largest > length {
      reader.report(
        "expected resets of at most the length, \(Self.text(length, role: role)), "
          + "found \(Self.text(largest, role: role))", key: "resets")
    }
    let tenthsBelow = tenths(reader: &reader)
    let follows = reader.text("follows", expected: "the name of the clock this one runs with")
    let blanks = reader.boolean("blank-when-less-game-time") ?? true
    guard let length, width >= fewest else { return nil }
    let format = ClockFormat(
      role: role, direction: direction, length: length, tenthsBelow: tenthsBelow, entry: entry,
      commitOnLastDigit: commitOnLastDigit, resets: resets, follows: follows,
      blanksWhenFollowedHasLess: blanks)
    return Content(kind: .clock(format), width: width, defaultValue: 0)
  }

  /// `tenths-below`: a time, `never` or `always`; nil when not given.
  private func tenths(reader: inout SectionReader) -> Duration? {
    guard let entry = reader.entry("tenths-below") else { return nil }
    switch entry.value.lowercased() {
    case "never": return .zero
    case "always": return ClockFormat.longest + .seconds(1)
    default:
      return clockTime(
        "tenths-below", longest: ClockFormat.longest, role: .game, choices: "never, always or ",
        reader: &reader)
    }
  }

  /// A time of the clock (`10:00`, `24`, `4.9`) from more than zero up to `longest`;
  /// `choices` are the words the key takes too, for the message.
  private func clockTime(
    _ key: String, longest: Duration, role: ClockFormat.Role, choices: String = "",
    reader: inout SectionReader
  ) -> Duration? {
    guard let entry = reader.entry(key) else { return nil }
    guard let time = ClockText.parse(entry.value), time > .zero, time <= longest else {
      reader.report(
        "expected \(choices)\(ClockText.expected), more than 0 and at most "
          + "\(Self.text(longest, role: role)), found \(Listing.found(entry.value))",
        key: key)
      return nil
    }
    return time
  }

  /// A time as a message shows it: `10:00`, `24`, a tenth only when it has one (`4.9`).
  private static func text(_ time: Duration, role: ClockFormat.Role) -> String {
    ClockText.text(
      time, tenths: time.nanoseconds % 1_000_000_000 != 0, minutes: role == .game)
  }

  /// A list field's values and width: `digits`, or else the widest value's. On a display
  /// whose cells show letters, the values are checked against its font.
  private func listContent(digits: Int?, alphanumeric: Bool, reader: inout SectionReader)
    -> Content?
  {
    for key in Self.numberKeys where reader.entry(key) != nil {
      reader.report("applies only to number fields, not to a field with 'values'", key: key)
    }
    guard
      let text = reader.text("values", expected: "values separated by spaces, such as 1 2 3 OT")
    else { return nil }
    var values: [String] = []
    var widths: [Int] = []
    for value in text.words() {
      if values.contains(value) {
        reader.report("expected each value once, found \"\(value)\" twice", key: "values")
        continue
      }
      do throws(UnshowableText) {
        widths.append(
          alphanumeric
            ? try AlphanumericFont.cells(for: value).count
            : try SegmentFont.cells(for: value).count)
        values.append(value)
      } catch {
        reader.report(error.description, key: "values")
      }
    }
    let widest = widths.max() ?? 0
    if let digits, widest > digits, let index = widths.firstIndex(of: widest) {
      reader.report(
        "expected values of at most \(Listing.count(digits, "cell")) (digits = \(digits)), "
          + "found \"\(values[index])\" of \(Listing.count(widest, "cell"))", key: "values")
    }
    var defaultValue = 0
    if let defaultText = reader.text("default", expected: "one of the values") {
      if let index = values.firstIndex(of: defaultText) {
        defaultValue = index
      } else {
        reader.report(
          "expected one of the values \(Listing.joined(values)), found \"\(defaultText)\"",
          key: "default")
      }
    }
    return Content(
      kind: .list(values), width: digits ?? widest, defaultValue: defaultValue,
      periodLengths: periodLengths(valueCount: values.count, reader: &reader),
      periodScores: periodScores(reader: &reader), breaks: breaks(reader: &reader))
  }
}
