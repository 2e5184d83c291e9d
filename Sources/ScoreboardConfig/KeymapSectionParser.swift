import ScoreboardCore

/// Reads a `[keymap NAME]` section: each key is a kernel key name, each value an action;
/// `repeat` lists the kinds of action a held key repeats.
struct KeymapSectionParser {
  /// The key that lists the kinds of action a held key repeats; no kernel key has this name.
  static let repeatKey = "repeat"

  /// A keymap read without error, with where its long-press bindings are, for the check
  /// against the keypads that use it.
  struct ParsedKeymap {
    var keymap: Keymap
    /// The section's title, for messages.
    var section: String
    /// The entries that bind a `long+` key.
    var longPressEntries: [IniEntry]
  }

  /// The fields read without error, by name.
  let fields: [String: FieldSpec]
  /// The names of every `[field NAME]` section, including those with errors.
  let fieldNames: [String]
  /// `fieldNames`, to look names up in.
  private let knownFieldNames: Set<String>
  /// The names of every `[horn NAME]` section, including those with errors.
  let hornNames: [String]
  /// The clock fields read without error, in file order; found once, not for each key of
  /// each keymap.
  private let clockNames: [String]
  /// The clock an action without a name acts on, as `ScoreboardSpec.mainClock` finds it.
  private let mainClock: FieldSpec?

  init(fields: [String: FieldSpec], fieldNames: [String], hornNames: [String] = []) {
    self.fields = fields
    self.fieldNames = fieldNames
    knownFieldNames = Set(fieldNames)
    self.hornNames = hornNames
    let clockFields = fieldNames.compactMap { fields[$0] }.filter { $0.isClock }
    clockNames = clockFields.map(\.name)
    mainClock =
      clockFields.first { $0.clockFormat?.role == .game && $0.clockFormat?.follows == nil }
      ?? clockFields.first
  }

  /// The keymap, or nil when something in the section is wrong.
  func parse(name: String, reader: inout SectionReader) -> ParsedKeymap? {
    var bindings: [Key: Action] = [:]
    // The entry that bound each key, for one that binds it again by another of its names.
    var bindingEntries: [Key: IniEntry] = [:]
    var longPressEntries: [IniEntry] = []
    var repeating = Keymap.defaultRepeating
    for entry in reader.entries {
      if entry.key.lowercased() == Self.repeatKey {
        if let kinds = Self.repeatingKinds(entry, reader: &reader) {
          repeating = kinds
        }
        continue
      }
      let key = Key(parsing: KernelKeyName.canonical(entry.key))
      if key == nil {
        reader.report(
          KernelKeyName.unknownNameMessage(
            entry.key, otherNames: [Self.repeatKey], suggestions: &reader.suggestions,
            expected: "'\(Self.repeatKey)' or a kernel key name such as KEY_KP7, BTN_0, "
              + "shift+KEY_TAB or long+BTN_0"),
          at: entry)
        // A misspelt `repeat` holds kinds of action, not an action.
        if NameSuggestion.isNear(entry.key, Self.repeatKey) {
          continue
        }
      }
      let action: Action
      do throws(ActionSyntaxError) {
        action = try Action(parsing: entry.value)
      } catch {
        reader.report(error.description, at: entry)
        continue
      }
      checkFields(of: action, entry: entry, reader: &reader)
      if let key {
        if let first = bindingEntries[key] {
          reader.report(
            "binds the key of \(first.key) (line \(first.line)) again: the kernel gives "
              + "key code \(key.code.rawValue) both names; bind it once",
            at: entry)
          continue
        }
        bindingEntries[key] = entry
        bindings[key] = action
        if key.long {
          longPressEntries.append(entry)
        }
      }
    }
    guard !reader.hasErrors else { return nil }
    return ParsedKeymap(
      keymap: Keymap(name: name, bindings: bindings, repeating: repeating),
      section: reader.section.title,
      longPressEntries: longPressEntries)
  }

  /// `repeat`: kinds of action separated by spaces, each once, or `none` alone; nil when
  /// something is wrong, which is reported.
  private static func repeatingKinds(_ entry: IniEntry, reader: inout SectionReader)
    -> Set<Action.Kind>?
  {
    let words = entry.value.words().map { $0.lowercased() }
    guard !words.isEmpty else {
      reader.report(
        "expected the kinds of action a held key repeats, separated by spaces, or none, "
          + "found nothing", at: entry)
      return nil
    }
    guard !words.contains("none") else {
      guard words.count == 1 else {
        reader.report("expected none alone, found \(Listing.found(entry.value))", at: entry)
        return nil
      }
      return []
    }
    var repeating: Set<Action.Kind> = []
    for word in words {
      guard let kind = Action.Kind(rawValue: word) else {
        let kinds = Action.Kind.allCases.map(\.rawValue) + ["none"]
        let note =
          word == "up" || word == "down" ? "; up and down are actions of kind add" : ""
        reader.report(
          "unknown kind of action '\(word)'\(note); expected \(Listing.joined(kinds))",
          at: entry)
        continue
      }
      guard repeating.insert(kind).inserted else {
        reader.report("expected each kind once, found '\(word)' twice", at: entry)
        continue
      }
    }
    return repeating.count == words.count ? repeating : nil
  }

  /// Reports fields the action names that do not exist, and a `set` value the field cannot
  /// hold.
  private func checkFields(of action: Action, entry: IniEntry, reader: inout SectionReader) {
    for fieldName in action.fieldNames where !knownFieldNames.contains(fieldName) {
      reader.report(
        reader.suggestions.unknownNameMessage(
          kind: .field, name: fieldName, known: fieldNames, context: " in \"\(action)\""),
        at: entry)
    }
    if case .set(let fieldName, let value) = action, let field = fields[fieldName] {
      let fits =
        field.clockFormat.map { format in
          ClockText.parse(value).map { $0 <= format.length } ?? false
        } ?? (field.value(parsing: value) != nil)
      if !fits {
        reader.report(
          "expected \(field.expectedValue) for field '\(fieldName)', found \"\(value)\"",
          at: entry)
      }
    }
    checkClocksAndHorns(of: action, entry: entry, reader: &reader)
  }

  /// Reports a clock action on a field that is not a clock, or without a clock to act on,
  /// and a horn that does not exist.
  private func checkClocksAndHorns(
    of action: Action, entry: IniEntry, reader: inout SectionReader
  ) {
    let clockActions: Set<Action.Kind> = [.start, .stop, .startStop, .adjust, .resetClock]
    if clockActions.contains(action.kind) {
      if let name = action.fieldNames.first, let field = fields[name], field.clockFormat == nil {
        reader.report(
          "field '\(name)' is not a clock; \"\(action.kind.rawValue)\" acts on "
            + (clockNames.isEmpty ? "clocks, and none is configured" : Listing.joined(clockNames)),
          at: entry)
      } else if action.fieldNames.isEmpty, clockNames.isEmpty, fields.count == fieldNames.count {
        reader.report(
          "\"\(action)\" acts on a clock, and none is configured; add a [field NAME] with "
            + "type = clock", at: entry)
      }
      // A clock named whose section has errors is not checked (`name.map`, not `flatMap`).
      if case .resetClock(let name, let time?) = action,
        let clock = name.map({ fields[$0] }) ?? mainClock, let format = clock.clockFormat,
        time > format.length
      {
        let length = ClockText.text(
          format.length, tenths: format.length.nanoseconds % 1_000_000_000 != 0,
          minutes: format.role == .game)
        reader.report(
          "expected a time of at most the length of clock '\(clock.name)', \(length), in "
            + "\"\(entry.value)\"", at: entry)
      }
    }
    if case .horn(let name) = action {
      if let name, !hornNames.contains(name) {
        reader.report(
          reader.suggestions.unknownNameMessage(
            kind: .horn, name: name, known: hornNames, context: " in \"\(action)\""),
          at: entry)
      } else if name == nil, hornNames.isEmpty {
        reader.report(
          "\"horn\" sounds a horn, and none is configured; add a [horn NAME] section", at: entry)
      }
    }
  }
}
