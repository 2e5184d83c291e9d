import ScoreboardCore

/// Reads a `[keymap NAME]` section: each key is a kernel key name, each value an action.
struct KeymapSectionParser {
  /// The fields read without error, by name.
  var fields: [String: FieldSpec]
  /// The names of every `[field NAME]` section, including those with errors.
  var fieldNames: [String]

  /// How a key name is written once its case is set aside: `shift+` and the kernel name
  /// in capitals (`shift+KEY_TAB`). Two entries for one key are a repeat.
  static func canonicalKeyName(_ text: String) -> String {
    let shiftPrefix = "shift+"
    guard text.lowercased().hasPrefix(shiftPrefix) else { return text.uppercased() }
    return shiftPrefix + text.dropFirst(shiftPrefix.count).uppercased()
  }

  /// The keymap, or nil when something in the section is wrong.
  func parse(name: String, reader: inout SectionReader) -> Keymap? {
    var bindings: [Key: Action] = [:]
    for entry in reader.entries {
      let key = Key(parsing: Self.canonicalKeyName(entry.key))
      if key == nil {
        reader.report(Self.unknownKeyMessage(entry.key), at: entry)
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
        bindings[key] = action
      }
    }
    guard !reader.hasErrors else { return nil }
    return Keymap(name: name, bindings: bindings)
  }

  /// Reports fields the action names that do not exist, and a `set` value the field cannot
  /// hold.
  private func checkFields(of action: Action, entry: IniEntry, reader: inout SectionReader) {
    for fieldName in action.fieldNames where !fieldNames.contains(fieldName) {
      reader.report(
        NameSuggestion.unknownNameMessage(
          kind: .field, name: fieldName, known: fieldNames, context: " in \"\(action)\""),
        at: entry)
    }
    if case .set(let fieldName, let value) = action, let field = fields[fieldName],
      field.value(parsing: value) == nil
    {
      reader.report(
        "expected \(field.expectedValue) for field '\(fieldName)', found \"\(value)\"", at: entry)
    }
  }

  private static func unknownKeyMessage(_ text: String) -> String {
    let canonical = canonicalKeyName(text)
    let shiftPrefix = canonical.hasPrefix("shift+") ? "shift+" : ""
    let kernelName = String(canonical.dropFirst(shiftPrefix.count))
    if let suggestion = NameSuggestion.nearest(to: kernelName, among: KeyCode.allNames) {
      return "unknown key '\(text)'; did you mean '\(shiftPrefix + suggestion)'?"
    }
    return "unknown key '\(text)'; expected a kernel key name such as KEY_KP7, BTN_0 "
      + "or shift+KEY_TAB"
  }
}
