import ScoreboardCore

/// Reads a `[keymap NAME]` section: each key is a kernel key name, each value an action.
struct KeymapSectionParser {
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
  var fields: [String: FieldSpec]
  /// The names of every `[field NAME]` section, including those with errors.
  var fieldNames: [String]

  /// The keymap, or nil when something in the section is wrong.
  func parse(name: String, reader: inout SectionReader) -> ParsedKeymap? {
    var bindings: [Key: Action] = [:]
    var longPressEntries: [IniEntry] = []
    for entry in reader.entries {
      let key = Key(parsing: KernelKeyName.canonical(entry.key))
      if key == nil {
        reader.report(
          KernelKeyName.unknownNameMessage(
            entry.key,
            expected: "a kernel key name such as KEY_KP7, BTN_0, shift+KEY_TAB or long+BTN_0"),
          at: entry)
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
        if key.long {
          longPressEntries.append(entry)
        }
      }
    }
    guard !reader.hasErrors else { return nil }
    return ParsedKeymap(
      keymap: Keymap(name: name, bindings: bindings), section: reader.section.title,
      longPressEntries: longPressEntries)
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
}
