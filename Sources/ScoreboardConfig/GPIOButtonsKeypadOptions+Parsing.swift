import ScoreboardSettings

extension GPIOButtonsKeypadOptions {
  /// The keys of a gpio-buttons keypad, besides its buttons.
  static let keys = ["bias", "active-low", "debounce", "long-press"]

  /// Reads the keys of a gpio-buttons keypad, and its buttons from `buttonEntries`: the
  /// section's other entries, each a kernel key name and a line (`BTN_0 = GPIO17`); nil
  /// when it has no button.
  static func parse(_ reader: inout SectionReader, buttonEntries: [IniEntry]) -> Self? {
    let bias: GPIOLineSettings.Bias? = reader.choice("bias")
    let activeLow = reader.boolean("active-low")
    let debounce = reader.duration("debounce", in: .zero...(.seconds(1)))
    let longPress = reader.duration("long-press", in: .milliseconds(100)...(.seconds(10)))
    if buttonEntries.isEmpty {
      reader.report(
        "missing a button; expected a key such as BTN_0 = GPIO17: the kernel key name the "
          + "button sends and its GPIO line")
    }
    var buttons: [Button] = []
    for entry in buttonEntries {
      guard let key = KernelKeyName.unprefixedKey(entry.key) else {
        let knownKeys = KeypadSectionParser.commonKeys + keys
        reader.report(
          KernelKeyName.unprefixedNameMessage(
            entry.key, otherNames: knownKeys, suggestions: &reader.suggestions,
            expected: Listing.joined(
              knownKeys.map { "'\($0)'" } + ["a button such as BTN_0 = GPIO17"])),
          at: entry)
        continue
      }
      if let line = reader.gpioLine(entry.key) {
        buttons.append(Button(key: key, line: line))
      }
    }
    guard !buttons.isEmpty else { return nil }
    return Self(
      buttons: buttons, bias: bias ?? .pullUp, activeLow: activeLow ?? true,
      debounce: debounce ?? .milliseconds(20), longPress: longPress ?? .seconds(1))
  }
}
