import ScoreboardCore

/// Turns the text of a configuration file into a `Configuration`, collecting every
/// problem on the way.
///
/// Sections are read kind by kind, each kind after those it refers to: displays, then
/// fields (which name displays), keymaps (which name fields), keypads (which name keymaps).
/// A reference to a section that exists but has errors is not reported again.
struct ConfigurationParser {
  /// The file, for diagnostics.
  let path: String
  private var diagnostics: [Diagnostic] = []

  init(path: String) {
    self.path = path
  }

  /// The configuration in `text`.
  ///
  /// - Throws: `ConfigurationError` with every problem, in line order.
  mutating func parse(_ text: String) throws(ConfigurationError) -> Configuration {
    let document = IniStreamReader.read(text, file: path)
    diagnostics = document.diagnostics
    for entry in document.entriesBeforeFirstSection {
      diagnostics.append(
        Diagnostic(
          file: path, line: entry.line,
          message: "key '\(entry.key)' is outside any section; "
            + "expected a section header such as [scoreboard] before it"))
    }
    let headedSections = readHeaders(of: document.sections)
    func sections(of kind: SectionKind) -> [(name: String, section: IniSection)] {
      headedSections.filter { $0.header.kind == kind }.map { ($0.header.name, $0.section) }
    }

    var scoreboard = ScoreboardSpec(fields: [], displays: [])
    var logLevel = LogLevel.info
    for (_, section) in sections(of: .scoreboard) {
      (scoreboard, logLevel) = read(section) { reader in ScoreboardSectionParser.parse(&reader) }
    }

    let displaySections = sections(of: .display)
    let displays = displaySections.compactMap { name, section in
      read(section) { reader in DisplaySectionParser.parse(name: name, reader: &reader) }
    }

    let fieldSections = sections(of: .field)
    let fieldParser = FieldSectionParser(
      displays: Dictionary(uniqueKeysWithValues: displays.map { ($0.name, $0) }),
      displayNames: displaySections.map(\.name))
    let fields = fieldSections.compactMap { name, section in
      read(section) { reader in fieldParser.parse(name: name, reader: &reader) }
    }
    reportOverlaps(of: fields)

    let keymapSections = sections(of: .keymap)
    let keymapParser = KeymapSectionParser(
      fields: Dictionary(uniqueKeysWithValues: fields.map { ($0.spec.name, $0.spec) }),
      fieldNames: fieldSections.map(\.name))
    let keymaps = keymapSections.compactMap { name, section in
      read(section, identity: KeymapSectionParser.canonicalKeyName) { reader in
        keymapParser.parse(name: name, reader: &reader)
      }
    }

    let keypadParser = KeypadSectionParser(
      keymaps: Dictionary(uniqueKeysWithValues: keymaps.map { ($0.name, $0) }),
      keymapNames: keymapSections.map(\.name))
    let keypads = sections(of: .keypad).compactMap { name, section in
      read(section) { reader in keypadParser.parse(name: name, reader: &reader) }
    }

    let lastLine = max(1, document.lineCount)
    if displaySections.isEmpty {
      report("no display; expected at least one section such as [display main]", line: lastLine)
    }
    if fieldSections.isEmpty {
      report("no field; expected at least one section such as [field home]", line: lastLine)
    }
    guard diagnostics.isEmpty else {
      let ordered = diagnostics.enumerated().sorted {
        ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
      }
      throw ConfigurationError(diagnostics: ordered.map(\.element))
    }
    scoreboard.fields = fields.map(\.spec)
    scoreboard.displays = displays.map { DisplayLayout(name: $0.name, cellCount: $0.cellCount) }
    return Configuration(
      path: path, scoreboard: scoreboard, logLevel: logLevel, displays: displays,
      keypads: keypads, keymaps: Dictionary(uniqueKeysWithValues: keymaps.map { ($0.name, $0) }))
  }

  /// The sections whose headers are valid, each once, with their kind and name.
  private mutating func readHeaders(of sections: [IniSection])
    -> [(header: SectionHeader, section: IniSection)]
  {
    var firstLines: [SectionHeader: Int] = [:]
    var headers: [(header: SectionHeader, section: IniSection)] = []
    for section in sections where section.isComplete {
      do throws(SectionHeader.Problem) {
        let header = try SectionHeader(title: section.title)
        if let firstLine = firstLines[header] {
          report("defined twice; first at line \(firstLine)", line: section.line, section: section)
        } else {
          firstLines[header] = section.line
          headers.append((header, section))
        }
      } catch {
        report(error.message, line: section.line, section: section)
      }
    }
    return headers
  }

  /// Runs `parse` on a reader of `section` and keeps what it reports.
  private mutating func read<Result>(
    _ section: IniSection, identity: (String) -> String = { $0 },
    parse: (inout SectionReader) -> Result
  ) -> Result {
    var reader = SectionReader(section: section, file: path, identity: identity)
    let result = parse(&reader)
    diagnostics += reader.diagnostics
    return result
  }

  /// Reports each field that takes a cell an earlier field on its display takes.
  private mutating func reportOverlaps(of fields: [FieldSectionParser.Field]) {
    for (index, field) in fields.enumerated() {
      for earlier in fields[..<index]
      where earlier.spec.display == field.spec.display
        && earlier.spec.cells.overlaps(field.spec.cells)
      {
        report(
          "overlaps field '\(earlier.spec.name)' on display '\(field.spec.display)': "
            + "this field takes \(Self.cellText(field.spec)), "
            + "'\(earlier.spec.name)' takes \(Self.cellText(earlier.spec))",
          line: field.positionLine, sectionTitle: field.section, key: "position")
      }
    }
  }

  private static func cellText(_ field: FieldSpec) -> String {
    Listing.cells((field.cells.lowerBound + 1)...field.cells.upperBound)
  }

  private mutating func report(_ message: String, line: Int, section: IniSection) {
    report(message, line: line, sectionTitle: section.title)
  }

  private mutating func report(
    _ message: String, line: Int, sectionTitle: String? = nil, key: String? = nil
  ) {
    diagnostics.append(
      Diagnostic(file: path, line: line, section: sectionTitle, key: key, message: message))
  }
}
