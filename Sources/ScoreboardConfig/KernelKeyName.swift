import ScoreboardCore

/// Key names as the configuration writes them: a kernel key name (`KEY_KP7`, `BTN_0`) in
/// any case, which a keymap may prefix with `long+` and `shift+`.
enum KernelKeyName {
  /// The prefixes a keymap may put before a name, in the order `Key` writes them.
  static let prefixes = ["long+", "shift+"]

  /// `text`'s prefixes, in lowercase and in the order of `prefixes`, and the name after
  /// them in capitals.
  static func split(_ text: String) -> (prefixes: String, name: String) {
    var name = Substring(text)
    var found: Set<String> = []
    while let prefix = prefixes.first(where: { name.lowercased().hasPrefix($0) }) {
      found.insert(prefix)
      name = name.dropFirst(prefix.count)
    }
    return (prefixes.filter(found.contains).joined(), name.uppercased())
  }

  /// How a key name is written once its case and the order of its prefixes are set
  /// aside (`long+shift+BTN_0`). Two entries for one key are a repeat.
  static func canonical(_ text: String) -> String {
    let (prefixes, name) = split(text)
    return prefixes + name
  }

  /// The key a kernel key name without prefix names, in any case (`btn_0`): a button or
  /// a key of a matrix; nil for anything else.
  static func unprefixedKey(_ text: String) -> Key? {
    Key(text.uppercased())
  }

  /// The message for `text`, which is not a key name: the nearest of `otherNames` (the
  /// section's other keys) or of the kernel names with the same prefixes, or else what
  /// was `expected`.
  static func unknownNameMessage(
    _ text: String, otherNames: [String] = [], suggestions: inout NameSuggestion,
    expected: String
  ) -> String {
    let (prefixes, name) = split(text)
    let suggestion =
      suggestions.nearest(to: text, among: otherNames)
      ?? suggestions.nearest(to: name, among: NameSuggestion.kernelKeyNames).map { prefixes + $0 }
    if let suggestion {
      return "unknown key '\(text)'; did you mean '\(suggestion)'?"
    }
    return "unknown key '\(text)'; expected \(expected)"
  }

  /// The message for `text` where only a kernel key name without prefix is allowed (a
  /// button, a key of a matrix); see `unknownNameMessage(_:otherNames:expected:)`.
  static func unprefixedNameMessage(
    _ text: String, otherNames: [String] = [], suggestions: inout NameSuggestion,
    expected: String
  ) -> String {
    let (prefixes, name) = split(text)
    guard !prefixes.isEmpty else {
      return unknownNameMessage(
        text, otherNames: otherNames, suggestions: &suggestions, expected: expected)
    }
    let example = KeyCode(name: name) == nil ? "BTN_0" : name
    return "expected a kernel key name without prefix, found '\(text)'; "
      + "a keymap binds long presses, as long+\(example) = ACTION"
  }
}
