import ScoreboardCore

extension TM1638KeypadOptions {
  /// The keys of a tm1638 display that make its buttons a keypad.
  static let keys = ["keymap", "buttons", "scan-interval", "debounce", "long-press"]

  /// Reads the keypad keys of a tm1638 display; nil when it names no keymap (its other
  /// keypad keys are then reported) or a key is wrong. Whether the keymap exists is
  /// checked once the keymaps are read.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let keymap = reader.text("keymap", expected: "the name of a [keymap NAME] section")
    let buttons = parseButtons(&reader)
    let scanInterval = reader.duration(
      "scan-interval", in: .milliseconds(5)...(.milliseconds(200)))
    let debounce = reader.duration("debounce", in: .zero...(.seconds(1)))
    let longPress = reader.duration("long-press", in: .milliseconds(100)...(.seconds(10)))
    guard let keymap else {
      if reader.entry("keymap") == nil {
        for key in keys.dropFirst() where reader.entry(key) != nil {
          reader.report(
            "applies only to a board whose buttons are a keypad; add keymap = KEYMAP to "
              + "read them", key: key)
        }
      }
      return nil
    }
    return Self(
      keymap: keymap, buttons: buttons ?? defaultButtons,
      scanInterval: scanInterval ?? .milliseconds(20), debounce: debounce ?? .milliseconds(20),
      longPress: longPress ?? .seconds(1))
  }

  /// `buttons`: a kernel key name without prefix for each of S1-S8, each once.
  private static func parseButtons(_ reader: inout SectionReader) -> [Key]? {
    guard let entry = reader.entry("buttons") else { return nil }
    let words = entry.value.words()
    let count = defaultButtons.count
    guard words.count == count else {
      reader.report(
        "expected \(count) kernel key names, the key each of S1 to S\(count) sends, such as "
          + "BTN_0 BTN_1 ... BTN_7, found \(words.isEmpty ? "nothing" : String(words.count))",
        at: entry)
      return nil
    }
    var buttons: [Key] = []
    for word in words {
      guard let key = KernelKeyName.unprefixedKey(word) else {
        let name = KernelKeyName.split(word).name
        var message = "'\(word)' is not a kernel key name without prefix"
        if let suggestion = reader.suggestions.nearest(
          to: name, among: NameSuggestion.kernelKeyNames)
        {
          message += "; did you mean '\(suggestion)'?"
        } else {
          message += ", such as BTN_0 or KEY_A"
        }
        reader.report(message, at: entry)
        continue
      }
      if buttons.contains(key) {
        reader.report("expected each key once, found \(key.name) twice", at: entry)
      } else {
        buttons.append(key)
      }
    }
    return buttons.count == count ? buttons : nil
  }
}
