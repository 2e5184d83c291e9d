extension SectionReader {
  /// The display a field or label is on (`display`): the one named, or the only one
  /// there is.
  mutating func displayName(among displays: KnownDisplays) -> String? {
    if let name = text("display", expected: "the name of a [display NAME] section") {
      guard displays.nameSet.contains(name) else {
        report(
          suggestions.unknownNameMessage(kind: .display, name: name, known: displays.names),
          key: "display")
        return nil
      }
      return name
    }
    if displays.names.count > 1 {
      report(
        "missing required key 'display'; there is more than one display: "
          + Listing.joined(displays.names, conjunction: "and"))
    }
    return displays.names.count == 1 ? displays.names[0] : nil
  }
}
