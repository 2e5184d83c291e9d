/// Reads the entries of one section as typed values and records what is wrong with them.
///
/// Each getter returns nil when its key is absent or its value is wrong; a wrong value is
/// reported, so `hasErrors` tells the caller to drop the section after reading the rest.
struct SectionReader {
  /// The file, for diagnostics.
  let file: String
  /// The section being read.
  let section: IniSection
  /// The first entry of each key, in file order (later ones are reported as repeats).
  private(set) var entries: [IniEntry] = []
  /// What is wrong with the section so far.
  private(set) var diagnostics: [Diagnostic] = []
  /// The GPIO lines read so far, with their keys, for the check that no line of the file
  /// is used twice.
  var gpioLineUses: [GPIOLineUse] = []
  /// The "did you mean" suggestions, with what is left of the file's budget for them.
  var suggestions: NameSuggestion

  /// Reads `section` and reports keys given twice; keys are the same when `identity`
  /// makes them equal. `suggestions` carries the budget the file's earlier sections left.
  init(
    section: IniSection, file: String, identity: (String) -> String = { $0 },
    suggestions: NameSuggestion = NameSuggestion()
  ) {
    self.file = file
    self.section = section
    self.suggestions = suggestions
    var firsts: [String: IniEntry] = [:]
    for entry in section.entries {
      if let first = firsts[identity(entry.key)] {
        // Written otherwise than case alone makes it (`BTN_MISC` after `BTN_0`, one key
        // code): the first is named as it was written.
        let writtenAs = first.key.lowercased() == entry.key.lowercased() ? "" : " as \(first.key)"
        report("given twice; first at line \(first.line)\(writtenAs)", at: entry)
      } else {
        firsts[identity(entry.key)] = entry
        entries.append(entry)
      }
    }
  }

  /// Whether anything in the section was reported.
  var hasErrors: Bool {
    !diagnostics.isEmpty
  }

  /// The entry of `key`, if given.
  func entry(_ key: String) -> IniEntry? {
    entries.first { $0.key == key }
  }

  /// The line of `key`, or of the section header when the key is absent.
  func line(of key: String) -> Int {
    entry(key)?.line ?? section.line
  }

  /// Records a problem with `key` (at its line), or with the whole section (at its header).
  mutating func report(_ message: String, key: String? = nil) {
    diagnostics.append(
      Diagnostic(
        file: file, line: key.map(line(of:)) ?? section.line, section: section.title, key: key,
        message: message))
  }

  /// Records a problem with one entry.
  mutating func report(_ message: String, at entry: IniEntry) {
    diagnostics.append(
      Diagnostic(
        file: file, line: entry.line, section: section.title, key: entry.key, message: message))
  }

  /// Reports each of `keys` that is absent.
  mutating func require(_ keys: String...) {
    for key in keys where entry(key) == nil {
      report("missing required key '\(key)'")
    }
  }

  /// Reports every key not in `known`, suggesting the nearest known one; keys in `ignoring`
  /// are left to the caller.
  mutating func reportUnknownKeys(known: [String], ignoring: [String] = []) {
    for entry in entries where !known.contains(entry.key) && !ignoring.contains(entry.key) {
      if let suggestion = suggestions.nearest(to: entry.key, among: known) {
        report("unknown key '\(entry.key)'; did you mean '\(suggestion)'?", at: entry)
      } else {
        report(
          "unknown key '\(entry.key)'; expected \(Listing.joined(known.lazy.map { "'\($0)'" }))",
          at: entry)
      }
    }
  }

  /// Free text; `expected` says what it is, for the message when it is empty.
  mutating func text(_ key: String, expected: String) -> String? {
    guard let value = entry(key)?.value else { return nil }
    guard !value.isEmpty else {
      report("expected \(expected), found nothing", key: key)
      return nil
    }
    return value
  }

  /// An absolute path; `example` is one, for the message when the path is not absolute.
  mutating func path(_ key: String, example: String = "/dev/tty2") -> String? {
    guard let value = entry(key)?.value else { return nil }
    guard value.hasPrefix("/") else {
      report(
        "expected an absolute path such as \(example), found \(Listing.found(value))", key: key)
      return nil
    }
    return value
  }

  /// An absolute path, or nil for `none`.
  mutating func optionalPath(_ key: String, example: String) -> String? {
    entry(key)?.value.lowercased() == "none" ? nil : path(key, example: example)
  }

  /// A whole number within `range`.
  mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
    guard let value = entry(key)?.value else { return nil }
    guard let number = Int(value), range.contains(number) else {
      report(
        "expected a whole number from \(range.lowerBound) to \(range.upperBound), "
          + "found \(Listing.found(value))", key: key)
      return nil
    }
    return number
  }

  /// A whole number among `choices`; `expected` says what they are, for the message that
  /// lists them: `expected a baud rate Linux can set: 1200, ... or 1000000`.
  mutating func integer(_ key: String, among choices: [Int], expected: String = "") -> Int? {
    guard let value = entry(key)?.value else { return nil }
    guard let number = Int(value), choices.contains(number) else {
      let list = Listing.joined(choices.map(String.init))
      report("expected \(expected)\(list), found \(Listing.found(value))", key: key)
      return nil
    }
    return number
  }

  /// A boolean: yes/no, true/false, on/off or 1/0.
  mutating func boolean(_ key: String) -> Bool? {
    guard let value = entry(key)?.value else { return nil }
    switch value.lowercased() {
    case "yes", "true", "on", "1": return true
    case "no", "false", "off", "0": return false
    default:
      report(
        "expected yes or no (or true/false, on/off, 1/0), found \(Listing.found(value))", key: key)
      return nil
    }
  }

  /// One of the cases of `Choice`, by raw value, in any case.
  mutating func choice<Choice: RawRepresentable & CaseIterable>(_ key: String) -> Choice?
  where Choice.RawValue == String {
    choice(key, names: Choice.allCases.map { ($0.rawValue, $0) })
  }

  /// One of the words of `names`, in any case, and the value it names.
  mutating func choice<Choice>(_ key: String, names: [(word: String, value: Choice)]) -> Choice? {
    guard let value = entry(key)?.value else { return nil }
    guard let choice = names.first(where: { $0.word == value.lowercased() }) else {
      let words = names.map(\.word)
      report("expected \(Listing.joined(words)), found \(Listing.found(value))", key: key)
      return nil
    }
    return choice.value
  }

  /// A duration with a unit (`100us`, `500ms`, `15s`, `2min`) within `range`; `0` alone
  /// when the range starts at zero. With `zeroMeansNever`, `0` alone is accepted too and
  /// returned as zero.
  mutating func duration(
    _ key: String, in range: ClosedRange<Duration>, zeroMeansNever: Bool = false
  ) -> Duration? {
    guard let value = entry(key)?.value else { return nil }
    if value == "0" && (zeroMeansNever || range.lowerBound == .zero) {
      return .zero
    }
    var expected =
      "a duration from \(range.lowerBound.configurationText) "
      + "to \(range.upperBound.configurationText)"
    if zeroMeansNever {
      expected = "0 (never) or " + expected
    }
    let text = value.lowercased()
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    let unitName = text.dropFirst(digits.count).trimmed()
    var advice = ""
    if let number = Int(digits), number <= 1_000_000_000 {
      if let unit = Duration.configurationUnits.first(where: { $0.name == unitName }) {
        let duration = Duration.microseconds(number * unit.microseconds)
        if range.contains(duration) {
          return duration
        }
      } else if unitName.allSatisfy(\.isLetter) {
        // Microseconds are offered only where the range reaches below a millisecond.
        let finest = range.lowerBound < .milliseconds(1) ? 1 : 1000
        let units = Duration.configurationUnits.filter { $0.microseconds >= finest }.map(\.name)
        advice =
          unitName.isEmpty
          ? "; add a unit: \(Listing.joined(units))"
          : "; the units are \(Listing.joined(units, conjunction: "and"))"
      }
    }
    report("expected \(expected), found \(Listing.found(value))\(advice)", key: key)
    return nil
  }
}
