extension SectionReader {
  /// The display a field or label is on (`display`): the one named, or the only one
  /// there is.
  ///
  /// - Parameters:
  ///   - displayNames: Every `[display NAME]` section, including those with errors.
  ///   - known: `displayNames`, to look names up in.
  mutating func displayName(among displayNames: [String], known: Set<String>) -> String? {
    if let name = text("display", expected: "the name of a [display NAME] section") {
      guard known.contains(name) else {
        report(
          suggestions.unknownNameMessage(kind: .display, name: name, known: displayNames),
          key: "display")
        return nil
      }
      return name
    }
    if displayNames.count > 1 {
      report(
        "missing required key 'display'; there is more than one display: "
          + Listing.joined(displayNames, conjunction: "and"))
    }
    return displayNames.count == 1 ? displayNames[0] : nil
  }
}
