import ScoreboardCore
import ScoreboardSettings

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
  /// The file's "did you mean" suggestions, which share one budget.
  private var suggestions = NameSuggestion()

  init(path: String) {
    self.path = path
  }

  /// The configuration in `text`.
  ///
  /// - Throws: `ConfigurationError` with every problem, in line order.
  mutating func parse(_ text: String) throws(ConfigurationError) -> Configuration {
    let document = IniReader.read(text, file: path)
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
    var service = ServiceSettings()
    for (_, section) in sections(of: .scoreboard) {
      (scoreboard, service) = read(section) { reader in ScoreboardSectionParser.parse(&reader) }
    }

    var mqtt: MQTTSettings?
    for (_, section) in sections(of: .mqtt) {
      mqtt = read(section) { reader in MQTTSectionParser.parse(&reader) }
    }

    var web: WebSettings?
    for (_, section) in sections(of: .web) {
      let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
      web = read(section) { reader in
        WebSectionParser.parse(&reader, configurationFolder: folder.isEmpty ? "/" : folder)
      }
    }

    let displaySections = sections(of: .display)
    let parsedDisplays = displaySections.compactMap { name, section in
      read(section) { reader in DisplaySectionParser.parse(name: name, reader: &reader) }
    }
    reportSharedPorts(of: parsedDisplays)
    reportSharedBackpacks(of: parsedDisplays)

    let fieldSections = sections(of: .field)
    let knownDisplays = KnownDisplays(
      parsedDisplays.map(\.configuration), names: displaySections.map(\.name))
    let fieldParser = FieldSectionParser(displays: knownDisplays)
    var fields = fieldSections.compactMap { name, section in
      read(section) { reader in fieldParser.parse(name: name, reader: &reader) }
    }
    let labelSections = sections(of: .label)
    let labelParser = LabelSectionParser(displays: knownDisplays)
    let labels = labelSections.compactMap { name, section in
      read(section) { reader in labelParser.parse(name: name, reader: &reader) }
    }
    resolveTakeOvers(of: &fields, fieldNames: fieldSections.map(\.name))
    reportOverlaps(
      of: fields.filter { $0.spec.takesOver == nil }.map {
        CellUser(
          kind: "field", name: $0.spec.name, display: $0.spec.display, cells: $0.spec.cells,
          section: $0.section, positionLine: $0.positionLine)
      }
        + labels.map {
          CellUser(
            kind: "label", name: $0.spec.name, display: $0.spec.display, cells: $0.cells,
            section: $0.section, positionLine: $0.positionLine)
        })
    reportTemplateFields(
      of: parsedDisplays, fields: fields.map(\.spec), fieldNames: fieldSections.map(\.name))

    reportClockLinks(of: fields, fieldNames: fieldSections.map(\.name))
    resolveTeamFoulPeriods(of: &fields, fieldNames: fieldSections.map(\.name))
    reportPeriodLengths(of: fields)
    reportPeriodScores(of: fields, fieldNames: fieldSections.map(\.name))
    reportTimeouts(of: fields, fieldNames: fieldSections.map(\.name))
    reportPenalties(of: fields, fieldNames: fieldSections.map(\.name))
    let setsParser = SetsSectionParser(
      fields: Dictionary(uniqueKeysWithValues: fields.map { ($0.spec.name, $0.spec) }),
      fieldNames: fieldSections.map(\.name))
    var sets: SetRules?
    for (_, section) in sections(of: .sets) {
      sets = read(section) { reader in setsParser.parse(&reader) }
    }

    var boardChecks = TM1638BoardChecks(
      path: path, suggestions: suggestions,
      fields: Dictionary(uniqueKeysWithValues: fields.map { ($0.spec.name, $0.spec) }),
      fieldNames: fieldSections.map(\.name))
    let displays = parsedDisplays.map { boardChecks.withIndicators($0) }
    suggestions = boardChecks.suggestions

    let hornSections = sections(of: .horn)
    let hornParser = HornSectionParser(
      clocks: Dictionary(
        uniqueKeysWithValues: fields.compactMap { field in
          field.spec.clockFormat.map { (field.spec.name, $0) }
        }), fieldNames: fieldSections.map(\.name),
      validFieldNames: Set(fields.map(\.spec.name)))
    let parsedHorns = hornSections.compactMap { name, section in
      read(section) { reader in hornParser.parse(name: name, reader: &reader) }
    }

    let keymapSections = sections(of: .keymap)
    let keymapParser = KeymapSectionParser(
      fields: Dictionary(uniqueKeysWithValues: fields.map { ($0.spec.name, $0.spec) }),
      fieldNames: fieldSections.map(\.name), hornNames: hornSections.map(\.name))
    let parsedKeymaps = keymapSections.compactMap { name, section in
      read(section, identity: KernelKeyName.canonical) { reader in
        keymapParser.parse(name: name, reader: &reader)
      }
    }
    let keymaps = parsedKeymaps.map(\.keymap)

    let keypadSections = sections(of: .keypad)
    let keypadParser = KeypadSectionParser(
      keymaps: Dictionary(uniqueKeysWithValues: keymaps.map { ($0.name, $0) }),
      keymapNames: keymapSections.map(\.name))
    let parsedKeypads = keypadSections.compactMap { name, section in
      read(section, identity: KeypadSectionParser.canonicalKeyName) { reader in
        keypadParser.parse(name: name, reader: &reader)
      }
    }
    boardChecks.suggestions = suggestions
    let boardKeypads = boardChecks.keypads(
      of: parsedDisplays, keymaps: Dictionary(uniqueKeysWithValues: keymaps.map { ($0.name, $0) }),
      keymapNames: keymapSections.map(\.name), keypadSections: keypadSections,
      keypads: parsedKeypads.map(\.configuration))
    diagnostics += boardChecks.diagnostics
    suggestions = boardChecks.suggestions
    // In file order: a board's keypad where its display section is.
    let keypads = (parsedKeypads.map(\.configuration) + boardKeypads).sorted { $0.line < $1.line }
    reportSharedDevices(of: parsedKeypads)
    reportSharedLines(
      of: parsedDisplays.flatMap(\.gpioLines) + parsedKeypads.flatMap(\.gpioLines)
        + parsedHorns.flatMap(\.gpioLines))
    let validKeypads = Set(keypads.map(\.name))
    reportLongPressBindings(
      of: parsedKeymaps, keypads: keypads,
      keypadsWithErrors: keypadSections.filter { !validKeypads.contains($0.name) }.map(\.section))

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
    scoreboard.displays = displays.map(\.layout)
    scoreboard.horns = parsedHorns.map(\.configuration.spec)
    scoreboard.labels = labels.map(\.spec)
    scoreboard.sets = sets
    return Configuration(
      path: path, scoreboard: scoreboard, service: service, displays: displays,
      keypads: keypads, keymaps: Dictionary(uniqueKeysWithValues: keymaps.map { ($0.name, $0) }),
      horns: parsedHorns.map(\.configuration), mqtt: mqtt, web: web)
  }

  /// Reports a clock that follows something other than another clock, or that follows a
  /// clock that follows another (one level is what consoles have).
  private mutating func reportClockLinks(
    of fields: [FieldSectionParser.Field], fieldNames: [String]
  ) {
    let specs = Dictionary(uniqueKeysWithValues: fields.map { ($0.spec.name, $0.spec) })
    for field in fields {
      guard let leader = field.spec.clockFormat?.follows else { continue }
      let problem: String?
      if leader == field.spec.name {
        problem = "a clock cannot follow itself"
      } else if let spec = specs[leader] {
        if spec.clockFormat == nil {
          problem = "field '\(leader)' is not a clock (type = clock or shot-clock)"
        } else if spec.clockFormat?.follows != nil {
          problem = "clock '\(leader)' follows another clock itself; follow the one it follows"
        } else {
          problem = nil
        }
      } else if fieldNames.contains(leader) {
        problem = nil  // its own section has the error
      } else {
        problem = suggestions.unknownNameMessage(kind: .field, name: leader, known: fieldNames)
      }
      if let problem {
        report(
          problem, line: field.followsLine, sectionTitle: field.section, key: "follows")
      }
    }
  }

  /// Reports a second field that counts periods, and period lengths that the game clock
  /// (the board's main clock) cannot hold, or with no game clock at all.
  private mutating func reportPeriodLengths(of fields: [FieldSectionParser.Field]) {
    let counting = fields.filter { $0.spec.periodLengths != nil }
    guard let first = counting.first else { return }
    for field in counting.dropFirst() {
      report(
        "only one field counts the periods, and [\(first.section)] (line "
          + "\(first.lengthsLine)) does already", line: field.lengthsLine,
        sectionTitle: field.section, key: "lengths")
    }
    let spec = ScoreboardSpec(fields: fields.map(\.spec), displays: [])
    guard let game = spec.mainClock.map({ spec.fields[$0] }), let format = game.clockFormat
    else {
      report(
        "no clock to load with them; add a game clock (a [field] with type = clock)",
        line: first.lengthsLine, sectionTitle: first.section, key: "lengths")
      return
    }
    if format.direction == .up,
      let other = first.spec.periodLengths?.first(where: { $0 != format.length })
    {
      // Counting up, a period starts at 0:00 and ends where the clock stops, its length.
      let stop = ClockText.text(format.length, tenths: false, minutes: true)
      report(
        "the game clock [field \(game.name)] counts up, from 0:00 to its length, \(stop), in "
          + "every period; expected \(stop) for each period, found "
          + ClockText.text(other, tenths: false, minutes: true), line: first.lengthsLine,
        sectionTitle: first.section, key: "lengths")
    } else if let longest = first.spec.periodLengths?.max(), longest > format.length {
      let most = ClockText.text(format.length, tenths: false, minutes: true)
      report(
        "expected lengths of at most the game clock's, \(most) ([field \(game.name)] "
          + "length), found " + ClockText.text(longest, tenths: false, minutes: true),
        line: first.lengthsLine, sectionTitle: first.section, key: "lengths")
    }
  }

  /// Gives each clock that takes over another field's cells that field's display,
  /// position and width: the other field must be a clock with cells of its own.
  private mutating func resolveTakeOvers(
    of fields: inout [FieldSectionParser.Field], fieldNames: [String]
  ) {
    let byName = Dictionary(fields.map { ($0.spec.name, $0.spec) }, uniquingKeysWith: { a, _ in a })
    for index in fields.indices {
      guard let name = fields[index].spec.takesOver else { continue }
      var problem: String?
      if let target = byName[name] {
        if target.clockFormat == nil {
          problem = "field '\(name)' is not a clock; a clock takes over a clock's cells"
        } else if target.takesOver != nil || name == fields[index].spec.name {
          problem = "field '\(name)' has no cells of its own to take over"
        } else {
          fields[index].spec.display = target.display
          fields[index].spec.position = target.position
          fields[index].spec.width = target.width
          continue
        }
      } else if !fieldNames.contains(name) {
        problem = suggestions.unknownNameMessage(kind: .field, name: name, known: fieldNames)
      }
      guard let problem else { continue }  // the other field's section has the error
      report(
        problem, line: fields[index].takesOverLine,
        sectionTitle: fields[index].section, key: "takes-over")
    }
  }

  /// Checks the score fields a period field keeps by period (number fields) and its
  /// break clock (a clock of its own).
  private mutating func reportPeriodScores(
    of fields: [FieldSectionParser.Field], fieldNames: [String]
  ) {
    let spec = ScoreboardSpec(fields: fields.map(\.spec), displays: [])
    for field in fields {
      if let name = field.spec.breakClock {
        var problem: String?
        if let index = spec.fields.firstIndex(where: { $0.name == name }) {
          if !spec.fields[index].isClock {
            problem = "field '\(name)' is not a clock (type = clock or shot-clock)"
          } else if index == spec.mainClock || spec.fields[index].clockFormat?.follows != nil {
            problem =
              "clock '\(name)' is the game clock or follows another; a break runs on a clock "
              + "of its own (such as [field interval] type = clock, takes-over = game)"
          }
        } else if !fieldNames.contains(name) {
          problem = suggestions.unknownNameMessage(kind: .field, name: name, known: fieldNames)
        }
        if let problem {
          report(
            problem, line: field.breakClockLine, sectionTitle: field.section, key: "break-clock")
        }
      }
      for name in field.spec.periodScores ?? [] {
        var problem: String?
        if let scored = fields.first(where: { $0.spec.name == name })?.spec {
          if case .number = scored.kind {
          } else {
            problem = "field '\(name)' is not a number field; scores are counted by number fields"
          }
        } else if !fieldNames.contains(name) {
          problem = suggestions.unknownNameMessage(kind: .field, name: name, known: fieldNames)
        }
        if let problem {
          report(problem, line: field.scoresLine, sectionTitle: field.section, key: "scores")
        }
      }
    }
  }

  /// Reports a team whose timeouts two fields count, and a timeout clock that is not a
  /// clock of its own (another field, the game clock, a clock that follows another).
  private mutating func reportTimeouts(
    of fields: [FieldSectionParser.Field], fieldNames: [String]
  ) {
    let spec = ScoreboardSpec(fields: fields.map(\.spec), displays: [])
    var teams: [String: String] = [:]
    for field in fields {
      guard let rules = field.spec.timeouts else { continue }
      if let other = teams[rules.team] {
        report(
          "field '\(other)' counts the timeouts of '\(rules.team)' already",
          line: field.timeoutsOfLine, sectionTitle: field.section, key: "timeouts-of")
      }
      teams[rules.team] = teams[rules.team] ?? field.spec.name
      guard let name = rules.clock else { continue }
      let problem: String?
      if let index = spec.fields.firstIndex(where: { $0.name == name }) {
        let clock = spec.fields[index]
        if clock.clockFormat == nil {
          problem = "field '\(name)' is not a clock (type = clock or shot-clock)"
        } else if index == spec.mainClock {
          problem =
            "clock '\(name)' is the game clock, which a timeout stops; the timeout's clock is "
            + "one of its own (such as [field timeout] type = shot-clock, length = 60)"
        } else if clock.clockFormat?.follows != nil {
          problem = "clock '\(name)' follows another; a timeout's clock runs alone"
        } else {
          problem = nil
        }
      } else if fieldNames.contains(name) {
        problem = nil  // its own section has the error
      } else {
        problem = suggestions.unknownNameMessage(kind: .field, name: name, known: fieldNames)
      }
      if let problem {
        report(
          problem, line: field.timeoutClockLine, sectionTitle: field.section,
          key: "timeout-clock")
      }
    }
  }

  /// Checks each penalties field: its team is its own, its clock is a clock (or the board
  /// has a game clock), and the field a power-play goal is scored on is a number field.
  private mutating func reportPenalties(
    of fields: [FieldSectionParser.Field], fieldNames: [String]
  ) {
    let spec = ScoreboardSpec(fields: fields.map(\.spec), displays: [])
    var teams: [String: String] = [:]
    for field in fields {
      guard case .penalties(let format) = field.spec.kind else { continue }
      if let other = teams[format.team] {
        report(
          "field '\(other)' keeps the penalties of '\(format.team)' already",
          line: field.teamLine, sectionTitle: field.section, key: "team")
      }
      teams[format.team] = teams[format.team] ?? field.spec.name
      if let name = format.clock {
        var problem: String?
        if let clock = spec.field(named: name) {
          if clock.clockFormat == nil {
            problem = "field '\(name)' is not a clock (type = clock)"
          }
        } else if !fieldNames.contains(name) {
          problem = suggestions.unknownNameMessage(kind: .field, name: name, known: fieldNames)
        }
        if let problem {
          report(problem, line: field.clockLine, sectionTitle: field.section, key: "clock")
        }
      } else if spec.mainClock == nil {
        report(
          "penalties count the game clock's running time, and the board has no clock; add a "
            + "[field game] with type = clock", line: field.positionLine,
          sectionTitle: field.section, key: "type")
      }
      if let name = format.endsOnGoalOf {
        var problem: String?
        if let scored = spec.field(named: name) {
          if case .number = scored.kind {
          } else {
            problem = "field '\(name)' is not a number field; goals are counted by number fields"
          }
        } else if !fieldNames.contains(name) {
          problem = suggestions.unknownNameMessage(kind: .field, name: name, known: fieldNames)
        }
        if let problem {
          report(
            problem, line: field.endsOnGoalOfLine, sectionTitle: field.section,
            key: "ends-on-goal-of")
        }
      }
    }
  }

  /// Checks the period field of each team-fouls field (a number or list field other than
  /// itself) and reads its `resets-at` as that field's values.
  private mutating func resolveTeamFoulPeriods(
    of fields: inout [FieldSectionParser.Field], fieldNames: [String]
  ) {
    let specs = Dictionary(uniqueKeysWithValues: fields.map { ($0.spec.name, $0.spec) })
    for index in fields.indices {
      let field = fields[index]
      guard let name = field.spec.teamFouls?.period else { continue }
      guard let period = specs[name] else {
        if !fieldNames.contains(name) {
          report(
            suggestions.unknownNameMessage(kind: .field, name: name, known: fieldNames),
            line: field.periodLine, sectionTitle: field.section, key: "period")
        }
        continue
      }
      guard name != field.spec.name, period.clockFormat == nil else {
        report(
          name == field.spec.name
            ? "a field cannot count its own periods"
            : "field '\(name)' is a clock; the periods are counted by a number or list field "
              + "(such as [field quarter] with values = 1 2 3 4 OT)",
          line: field.periodLine, sectionTitle: field.section, key: "period")
        continue
      }
      guard let resetsAt = field.resetsAt else { continue }
      var values: [Int] = []
      for word in resetsAt.text.words() {
        guard let value = period.value(parsing: word), value != period.valueRange.lowerBound
        else {
          report(
            "expected values of '\(name)' after its first, at whose start the fouls start "
              + "again (such as 2 3 4), found \(Listing.found(word))",
            line: resetsAt.line, sectionTitle: field.section, key: "resets-at")
          continue
        }
        values.append(value)
      }
      fields[index].spec.teamFouls?.resetsAt = values
    }
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
    var reader = SectionReader(
      section: section, file: path, identity: identity, suggestions: suggestions)
    let result = parse(&reader)
    diagnostics += reader.diagnostics
    suggestions = reader.suggestions
    return result
  }

  /// A field or label, as the check for shared cells sees it.
  private struct CellUser {
    /// `field` or `label`.
    var kind: String
    var name: String
    var display: String
    var cells: Range<Int>
    var section: String
    var positionLine: Int

    /// `cells 1 to 2`.
    var cellText: String {
      Listing.cells((cells.lowerBound + 1)...cells.upperBound)
    }
  }

  /// Reports each field or label that takes a cell an earlier one on its display takes:
  /// once for each that first took one of those cells, in file order (fields first).
  private mutating func reportOverlaps(of users: [CellUser]) {
    // The index of the user that first took each cell, by display.
    var owners: [String: [Int: Int]] = [:]
    for (index, user) in users.enumerated() {
      let earlierOwners = Set(user.cells.compactMap { owners[user.display]?[$0] })
      for cell in user.cells where owners[user.display]?[cell] == nil {
        owners[user.display, default: [:]][cell] = index
      }
      for earlier in earlierOwners.sorted().map({ users[$0] }) {
        report(
          "overlaps \(earlier.kind) '\(earlier.name)' on display '\(user.display)': "
            + "this \(user.kind) takes \(user.cellText), "
            + "'\(earlier.name)' takes \(earlier.cellText)",
          line: user.positionLine, sectionTitle: user.section, key: "position")
      }
    }
  }

  /// Reports each serial port a display uses that an earlier display, or an earlier module
  /// of an s7s display, uses too. (An s7s display that lists a port twice is reported
  /// when its section is read.)
  private mutating func reportSharedPorts(of displays: [DisplaySectionParser.Display]) {
    var users: [String: DisplaySectionParser.Display] = [:]
    for display in displays {
      for port in display.configuration.driver.serialPorts {
        if let earlier = users[port] {
          report(
            "\(port) is also the port of [\(earlier.section)] (line \(earlier.portLine)); "
              + "a serial port drives one display",
            line: display.portLine, sectionTitle: display.section, key: "port")
        } else {
          users[port] = display
        }
      }
    }
  }

  /// Reports each I²C address on a bus that an earlier display uses too. (A display that
  /// lists an address twice is reported when its section is read.)
  private mutating func reportSharedBackpacks(of displays: [DisplaySectionParser.Display]) {
    var users: [String: DisplaySectionParser.Display] = [:]
    for display in displays {
      guard case .ht16k33(let options) = display.configuration.driver else { continue }
      for address in options.addresses {
        let hex = "0x" + String(address, radix: 16)
        let key = "\(options.bus) \(hex)"
        if let earlier = users[key] {
          report(
            "\(hex) on \(options.bus) is also an address of [\(earlier.section)] "
              + "(line \(earlier.addressLine)); a backpack belongs to one display",
            line: display.addressLine, sectionTitle: display.section, key: "address")
        } else {
          users[key] = display
        }
      }
    }
  }

  /// Reports each evdev keypad that chooses its device as an earlier one does: by the same
  /// path, pattern or name. (Whether two paths are one device only the system knows.)
  private mutating func reportSharedDevices(of keypads: [KeypadSectionParser.Keypad]) {
    var users: [EvdevKeypadOptions.Selector: (section: String, line: Int)] = [:]
    for keypad in keypads {
      guard case .evdev(let options) = keypad.configuration.driver,
        let entry = keypad.deviceEntry
      else { continue }
      guard let earlier = users[options.selector] else {
        users[options.selector] = (keypad.section, entry.line)
        continue
      }
      let earlierKeypad = "[\(earlier.section)] (line \(earlier.line))"
      let message =
        switch options.selector {
        case .path(let text), .glob(let text):
          "\(text) is also the device of \(earlierKeypad); a device is read by one keypad"
        case .name(let name):
          "\"\(name)\" is also the name of \(earlierKeypad); keypads of one model have one "
            + "name: choose each by the USB port it is plugged into, as "
            + "device = /dev/input/by-path/...-event-kbd"
        }
      report(message, line: entry.line, sectionTitle: keypad.section, key: entry.key)
    }
  }

  /// Reports each GPIO line that a key earlier in the file uses too, in the same section
  /// or another: a line can be requested only once. (A list that names a line twice is
  /// reported when its section is read.)
  private mutating func reportSharedLines(of uses: [GPIOLineUse]) {
    var firstUses: [GPIOLine: GPIOLineUse] = [:]
    for use in uses.sorted(by: { $0.fileLine < $1.fileLine }) {
      if let earlier = firstUses[use.line] {
        report(
          "\(use.line) is also used by [\(earlier.section)] \(earlier.key) "
            + "(line \(earlier.fileLine)); a GPIO line can be used only once",
          line: use.fileLine, sectionTitle: use.section, key: use.key)
      } else {
        firstUses[use.line] = use
      }
    }
  }

  /// Reports each `long+` binding of a keymap that only keypads other than gpio-buttons
  /// and TM1638 boards use, since only those tell a long press. A keymap no keypad uses is not reported, nor
  /// one that a keypad with errors names.
  private mutating func reportLongPressBindings(
    of keymaps: [KeymapSectionParser.ParsedKeymap], keypads: [KeypadConfiguration],
    keypadsWithErrors: [IniSection]
  ) {
    let usersByKeymap = Dictionary(grouping: keypads, by: \.keymap.name)
    let namedByKeypadsWithErrors = Set(
      keypadsWithErrors.flatMap { section in
        section.entries.filter { $0.key == "keymap" }.map(\.value)
      })
    for parsed in keymaps where !parsed.longPressEntries.isEmpty {
      let name = parsed.keymap.name
      let users = usersByKeymap[name] ?? []
      guard !users.isEmpty, !namedByKeypadsWithErrors.contains(name),
        !users.contains(where: \.tellsLongPresses)
      else { continue }
      let keypadList =
        (users.count == 1 ? "keypad " : "keypads ")
        + Listing.joined(users.lazy.map { "'\($0.name)'" }, conjunction: "and")
      for entry in parsed.longPressEntries {
        report(
          "long presses come only from gpio-buttons keypads and TM1638 boards; keymap '\(name)' is used only by "
            + keypadList, line: entry.line, sectionTitle: parsed.section, key: entry.key)
      }
    }
  }

  /// Reports each field a display's template names that is not on that display. A field
  /// whose section has errors is not reported.
  private mutating func reportTemplateFields(
    of displays: [DisplaySectionParser.Display], fields: [FieldSpec], fieldNames: [String]
  ) {
    let fieldsByName = Dictionary(
      fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let namesByDisplay = Dictionary(grouping: fields, by: \.display).mapValues { $0.map(\.name) }
    let knownFieldNames = Set(fieldNames)
    for display in displays {
      guard case .serialText(let options) = display.configuration.driver else { continue }
      let name = display.configuration.name
      let shown = namesByDisplay[name] ?? []
      let shownNames = Set(shown)
      for fieldName in options.template.fieldNames where !shownNames.contains(fieldName) {
        let problem = "field '\(fieldName)' is not on display '\(name)'"
        let message: String
        if let field = fieldsByName[fieldName] {
          message =
            "field '\(fieldName)' is on display '\(field.display)', not on display '\(name)'"
        } else if knownFieldNames.contains(fieldName) {
          continue  // The field's section has errors, already reported.
        } else if let suggestion = suggestions.nearest(to: fieldName, among: shown) {
          message = problem + "; did you mean '\(suggestion)'?"
        } else if shown.isEmpty {
          message = problem + ", which shows no field"
        } else {
          message = problem + "; expected \(Listing.joined(shown.lazy.map { "'\($0)'" }))"
        }
        report(
          message, line: display.templateLine, sectionTitle: display.section, key: "template")
      }
    }
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
