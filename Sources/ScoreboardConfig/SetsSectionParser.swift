import ScoreboardCore

/// Reads the `[sets]` section: set scoring, with the fields of each team's points and
/// sets won, the points that win a set and the lead it needs, the deciding set and its
/// target, and the field that shows who serves.
struct SetsSectionParser {
  static let keys = [
    "points", "sets", "wins-at", "win-by", "deciding-set", "deciding-wins-at", "serve",
  ]

  /// The fields read without error, by name.
  let fields: [String: FieldSpec]
  /// Every field section's name, read without error or not.
  let fieldNames: [String]

  /// The rules, or nil when something in the section is wrong.
  func parse(_ reader: inout SectionReader) -> SetRules? {
    reader.reportUnknownKeys(known: Self.keys)
    reader.require("points", "sets", "wins-at")
    let points = teamFields("points", what: "points", reader: &reader)
    let sets = teamFields("sets", what: "sets won", reader: &reader)
    if let points, let sets, !Set(points).isDisjoint(with: sets) {
      reader.report("expected fields other than those of 'points'", key: "sets")
    }
    let winsAt = reader.integer("wins-at", in: 1...999)
    let winBy = reader.integer("win-by", in: 1...99) ?? 2
    let decidingSet = reader.integer("deciding-set", in: 1...99)
    let decidingWinsAt = reader.integer("deciding-wins-at", in: 1...999)
    if (decidingSet == nil) != (decidingWinsAt == nil), !reader.hasErrors {
      reader.report(
        "'deciding-set' and 'deciding-wins-at' go together (volleyball: deciding-set = 5, "
          + "deciding-wins-at = 15)", key: decidingSet == nil ? "deciding-wins-at" : "deciding-set")
    }
    let serve = serveField(reader: &reader)
    guard !reader.hasErrors, let points, let sets, let winsAt else { return nil }
    return SetRules(
      points: points, sets: sets, winsAt: winsAt, winBy: winBy, decidingSet: decidingSet,
      decidingWinsAt: decidingWinsAt, serve: serve)
  }

  /// Two number fields, the first team's first; nil when the key is absent or wrong.
  private func teamFields(_ key: String, what: String, reader: inout SectionReader)
    -> [String]?
  {
    guard let text = reader.text(key, expected: "two fields, such as home away") else {
      return nil
    }
    let names = text.words()
    guard names.count == 2, names[0] != names[1] else {
      reader.report(
        "expected the two teams' fields of \(what), the first team's first (such as "
          + "home away), found \(Listing.found(text))", key: key)
      return nil
    }
    for name in names {
      guard let field = fields[name] else {
        if !fieldNames.contains(name) {
          let message = reader.suggestions.unknownNameMessage(
            kind: .field, name: name, known: fieldNames)
          reader.report(message, key: key)
        }
        return nil
      }
      guard case .number = field.kind else {
        reader.report(
          "field '\(name)' is not a number field; the \(what) are counted by number fields",
          key: key)
        return nil
      }
    }
    return names
  }

  /// `serve`: a list field of two values, the first team's first.
  private func serveField(reader: inout SectionReader) -> String? {
    guard let name = reader.text("serve", expected: "a list field such as serve") else {
      return nil
    }
    guard let field = fields[name] else {
      if !fieldNames.contains(name) {
        let message = reader.suggestions.unknownNameMessage(
          kind: .field, name: name, known: fieldNames)
        reader.report(message, key: "serve")
      }
      return nil
    }
    guard case .list(let values) = field.kind, values.count == 2 else {
      reader.report(
        "expected a list field of two values, the first team's first (such as values = H A); "
          + "field '\(name)' is not one", key: "serve")
      return nil
    }
    return name
  }
}
