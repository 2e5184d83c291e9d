import ScoreboardCore

/// The checks of TM1638 boards' sections against the sections they name, which are read
/// after the displays: their LEDs (`led-1` ... `led-8`) name fields and clocks, their
/// `keymap` a `[keymap NAME]`. Problems are collected in `diagnostics`, each naming the
/// file, line, section and key.
///
/// An LED is `FIELD VALUE`, lit while the field's committed value is VALUE (a number in
/// the field's range, or one of its list values as written), or `running CLOCK`, lit
/// while that clock runs (unless a field is named `running`: then it is that field's).
struct TM1638BoardChecks {
  /// The file, for diagnostics.
  let path: String
  /// What is wrong, in the order found.
  private(set) var diagnostics: [Diagnostic] = []
  /// The file's "did you mean" suggestions.
  var suggestions: NameSuggestion

  /// The fields read without error, by name.
  let fields: [String: FieldSpec]
  /// The names of every `[field NAME]` section, including those with errors.
  let fieldNames: [String]

  init(path: String, suggestions: NameSuggestion, fields: [String: FieldSpec], fieldNames: [String])
  {
    self.path = path
    self.suggestions = suggestions
    self.fields = fields
    self.fieldNames = fieldNames
  }

  /// `display` with the indicators its LEDs name, when it is a board (one per LED, nil
  /// for a dark one); unchanged otherwise.
  mutating func withIndicators(_ display: DisplaySectionParser.Display) -> DisplayConfiguration {
    var configuration = display.configuration
    guard case .tm1638 = configuration.driver else { return configuration }
    configuration.indicators = TM1638DisplayOptions.indicatorKeys.map { key in
      display.entries.first { $0.key == key }.flatMap { indicator($0, section: display.section) }
    }
    return configuration
  }

  /// The keypads of the boards that name a keymap, each named like its display.
  ///
  /// - Parameters:
  ///   - keymaps: The keymaps read without error, by name.
  ///   - keymapNames: The names of every `[keymap NAME]` section.
  ///   - keypadSections: The `[keypad NAME]` sections, whose names a board's keypad must
  ///     not take.
  ///   - keypads: The keypads of those sections read without error.
  mutating func keypads(
    of displays: [DisplaySectionParser.Display], keymaps: [String: Keymap], keymapNames: [String],
    keypadSections: [(name: String, section: IniSection)], keypads: [KeypadConfiguration]
  ) -> [KeypadConfiguration] {
    let boards = displays.compactMap { display -> (Display, TM1638KeypadOptions)? in
      guard case .tm1638(let options) = display.configuration.driver, let keypad = options.keypad
      else { return nil }
      return (display, keypad)
    }
    var configurations: [KeypadConfiguration] = []
    for (display, options) in boards {
      let name = display.configuration.name
      let line = display.entries.first { $0.key == "keymap" }?.line ?? display.configuration.line
      if let clash = keypadSections.first(where: { $0.name == name }) {
        report(
          "the board's buttons are keypad '\(name)', and [\(clash.section.title)] (line "
            + "\(clash.section.line)) has that name too; rename one of them",
          line: line, section: display.section, key: "keymap")
      }
      guard let keymap = keymaps[options.keymap] else {
        if !keymapNames.contains(options.keymap) {
          report(
            suggestions.unknownNameMessage(kind: .keymap, name: options.keymap, known: keymapNames),
            line: line, section: display.section, key: "keymap")
        }
        continue
      }
      // A keymap that other keypads use too may bind keys only they send.
      if !keypads.contains(where: { $0.keymap.name == keymap.name }) {
        let sent = Set(
          boards.filter { $0.1.keymap == keymap.name }.flatMap(\.1.buttons).map(\.name))
        let unsent = keymap.bindings.keys.filter { $0.shift || !sent.contains($0.name) }
          .map(\.description).sorted()
        if !unsent.isEmpty {
          report(
            "keymap '\(keymap.name)' binds \(Listing.joined(unsent, conjunction: "and")), "
              + "which no button of the board sends; buttons = names the key each of S1 to S8 "
              + "sends (BTN_0 to BTN_7 when it is absent)",
            line: line, section: display.section, key: "keymap")
        }
      }
      configurations.append(
        KeypadConfiguration(
          name: name, line: display.configuration.line, keymap: keymap,
          driver: .tm1638(options)))
    }
    return configurations
  }

  private typealias Display = DisplaySectionParser.Display

  /// The indicator an LED's entry names; nil when it is wrong, which is reported.
  private mutating func indicator(_ entry: IniEntry, section: String) -> Indicator? {
    let words = entry.value.words()
    func fail(_ message: String) -> Indicator? {
      diagnostics.append(
        Diagnostic(file: path, line: entry.line, section: section, key: entry.key, message: message)
      )
      return nil
    }
    if words.first?.lowercased() == "bonus", !fieldNames.contains(words[0]) {
      return bonusIndicator(words, entry: entry, section: section)
    }
    if words.first?.lowercased() == "power-play", !fieldNames.contains(words[0]) {
      let penaltyNames = fieldNames.filter {
        if case .penalties? = fields[$0]?.kind { true } else { false }
      }
      guard words.count == 2 else {
        return fail(
          "expected power-play PENALTIES (lit while that team is on the power play), found "
            + Listing.found(entry.value))
      }
      guard let field = fields[words[1]] else {
        guard !fieldNames.contains(words[1]) else { return nil }
        return fail(
          suggestions.unknownNameMessage(
            kind: .field, name: words[1], known: penaltyNames,
            context: " in \"\(entry.value)\""))
      }
      guard case .penalties = field.kind else {
        return fail(
          "field '\(words[1])' keeps no penalties (type = penalties); fields that do: "
            + (penaltyNames.isEmpty ? "none" : Listing.joined(penaltyNames)))
      }
      return .powerPlay(field: words[1])
    }
    guard words.count == 2 else {
      return fail(
        "expected FIELD VALUE (lit while the field's value is VALUE), running CLOCK (lit "
          + "while the clock runs), bonus FOULS [2] (lit in the bonus, or the double "
          + "bonus) or power-play PENALTIES, found \(Listing.found(entry.value))")
    }
    let clockNames = fieldNames.filter { fields[$0]?.clockFormat != nil }
    if words[0].lowercased() == "running", !fieldNames.contains(words[0]) {
      let name = words[1]
      guard let field = fields[name] else {
        guard !fieldNames.contains(name) else { return nil }  // its section has the error
        return fail(
          suggestions.unknownNameMessage(
            kind: .field, name: name, known: clockNames, context: " in \"\(entry.value)\""))
      }
      guard field.isClock else {
        return fail(
          "field '\(name)' is not a clock; running CLOCK lights while a clock runs: "
            + (clockNames.isEmpty ? "none is configured" : Listing.joined(clockNames)))
      }
      return .running(clock: name)
    }
    let (name, text) = (words[0], words[1])
    guard let field = fields[name] else {
      guard !fieldNames.contains(name) else { return nil }
      return fail(
        suggestions.unknownNameMessage(
          kind: .field, name: name, known: fieldNames, context: " in \"\(entry.value)\""))
    }
    guard field.clockFormat == nil else {
      return fail("field '\(name)' is a clock; running \(name) lights while it runs")
    }
    guard let value = field.value(parsing: text) else {
      return fail("expected \(field.expectedValue) for field '\(name)', found \"\(text)\"")
    }
    return .value(field: name, equals: value)
  }

  /// `bonus FOULS` or `bonus FOULS LEVEL`: lit while a team-fouls field is in its bonus
  /// (or its LEVELth, such as the double bonus).
  private mutating func bonusIndicator(_ words: [String], entry: IniEntry, section: String)
    -> Indicator?
  {
    func fail(_ message: String) -> Indicator? {
      report(message, line: entry.line, section: section, key: entry.key)
      return nil
    }
    let foulNames = fieldNames.filter { fields[$0]?.teamFouls?.bonus.isEmpty == false }
    guard words.count == 2 || words.count == 3 else {
      return fail(
        "expected bonus FOULS, or bonus FOULS 2 for the double bonus, found "
          + Listing.found(entry.value))
    }
    let name = words[1]
    guard let field = fields[name] else {
      guard !fieldNames.contains(name) else { return nil }  // its section has the error
      return fail(
        suggestions.unknownNameMessage(
          kind: .field, name: name, known: fieldNames, context: " in \"\(entry.value)\""))
    }
    guard let bonus = field.teamFouls?.bonus, !bonus.isEmpty else {
      return fail(
        "field '\(name)' has no bonus (such as bonus = 5 in its section); fields with one: "
          + (foulNames.isEmpty ? "none" : Listing.joined(foulNames)))
    }
    let level = words.count == 3 ? Int(words[2]) : 1
    guard let level, (1...bonus.count).contains(level) else {
      return fail(
        "expected a bonus level from 1 to \(bonus.count) (bonus = "
          + "\(bonus.map(String.init).joined(separator: " "))), found \"\(words[2])\"")
    }
    return .bonus(field: name, level: level)
  }

  private mutating func report(_ message: String, line: Int, section: String, key: String) {
    diagnostics.append(
      Diagnostic(file: path, line: line, section: section, key: key, message: message))
  }
}
