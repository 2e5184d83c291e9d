/// What the scoreboard keeps across restarts: each field's value, the brightness and
/// whether the displays are blanked, as the text of the state file.
///
/// The state is a few lines a person can read (the state file keeps two copies of
/// them, each after a line of its own: `TwoSlotFile` in LinuxIO):
///
/// ```
/// # scoreboardd state; written by scoreboardd on every change
/// version 2
/// brightness 8
/// blank off
/// field home 12
/// field period OT
/// boot 0f4c3a6e-8d1b-4c7e-9a55-2b6f1e0d9c31
/// clock game 690123456789 running 81234567890123
/// clock shot 24000000000 stopped
/// played game 1200000000000
/// penalty home-penalties 17 120000000000 1325000000000
/// penalty home-penalties 4 120000000000 1390000000000 1402500000000
/// command desk-7 ok%20home%2013
/// ```
///
/// A `played` line has a clock's game time played at its start time
/// (`Scoreboard.playedBase`, nanoseconds), a `penalty` line one penalty of a penalties
/// field, in the order given: the player, its length, the game time played when it was
/// given and, for one ended early, when it ended (nanoseconds). A `period` line is a
/// period `next-period` ended: the period field's value and the score fields' totals at
/// its end (`period 1 25 20`), oldest first; a `set` line the points of a set won
/// (`set 25 23`), oldest first. Version 1 files, which have none of them,
/// still load.
///
/// `command` lines are the ids of the last requests that came over MQTT with an id and
/// their replies, oldest first (percent-encoded, each one word), so that a request the
/// broker delivers again after a restart is answered, not carried out a second time.
///
/// A clock's line has its time in nanoseconds and, while it runs, the instant it was
/// started on the monotonic clock of the boot that `boot` names (the kernel's boot id):
/// in the same boot, a running clock goes on as if the daemon had never stopped.
///
/// Values are kept as text: whether each one still fits the fields is for the
/// scoreboard to decide when the state is applied, since the configuration may have
/// changed since the file was written.
public struct SavedState: Hashable, Sendable {
  /// The version of the format that `encoded()` writes and `init(parsing:)` reads.
  public static let version = 2
  /// The versions `init(parsing:)` reads: 1 had no penalties.
  public static let readableVersions = ["1", "2"]

  /// Each field's value as text (`12`, `OT`), by field name.
  public var values: [String: String]
  /// The brightness, 0...15; nil leaves the board's own.
  public var brightness: Int?
  /// Whether the displays are blanked; nil leaves the board as it is.
  public var isBlanked: Bool?
  /// Each clock's state, by field name.
  public var clocks: [String: ClockState]
  /// The boot (`/proc/sys/kernel/random/boot_id`) whose monotonic clock the start
  /// instants of running clocks are on.
  public var bootID: String?
  /// The ids of the last requests carried out and their replies, oldest first.
  public var commandReplies: [CommandReply]
  /// Each penalties field's penalties, in the order given, by field name.
  public var penalties: [String: [Penalty]] = [:]
  /// Each clock's game time played at its start time, by field name.
  public var played: [String: Duration] = [:]
  /// The periods ended, oldest first: the period field's value as text, and the score
  /// fields' totals at the end.
  public var finishedPeriods: [Period] = []
  /// With set scoring, the points of each set won, oldest first.
  public var finishedSets: [[Int]] = []

  /// A period ended, as the file keeps it.
  public struct Period: Hashable, Sendable {
    public var period: String
    public var totals: [Int]

    public init(period: String, totals: [Int]) {
      self.period = period
      self.totals = totals
    }
  }

  /// The most periods a file keeps.
  public static let maximumPeriods = 99

  /// The reply a request with an id got.
  public struct CommandReply: Hashable, Sendable {
    public var id: String
    public var reply: String

    public init(id: String, reply: String) {
      self.id = id
      self.reply = reply
    }
  }

  /// The most `command` lines a state file keeps, and the longest id and reply kept.
  public static let maximumCommandReplies = 128
  public static let maximumCommandIDLength = 128
  public static let maximumCommandReplyLength = 256

  /// A state with these values, brightness and blanking.
  public init(
    values: [String: String] = [:], brightness: Int? = nil, isBlanked: Bool? = nil,
    clocks: [String: ClockState] = [:], bootID: String? = nil, commandReplies: [CommandReply] = []
  ) {
    self.values = values
    self.brightness = brightness
    self.isBlanked = isBlanked
    self.clocks = clocks
    self.bootID = bootID
    self.commandReplies = commandReplies
  }

  /// The committed state of `board` (an open edit session is not part of it).
  public init(from board: Scoreboard, bootID: String? = nil) {
    var values = [String: String](minimumCapacity: board.spec.fields.count)
    var clocks: [String: ClockState] = [:]
    var penalties: [String: [Penalty]] = [:]
    var played: [String: Duration] = [:]
    for (index, field) in board.spec.fields.enumerated() {
      if let clock = board.clocks[index] {
        clocks[field.name] = clock
        if board.playedBase[index] != .zero {
          played[field.name] = board.playedBase[index]
        }
      } else if let list = board.penalties[index] {
        // What was reported is the board's business, not the file's; a field without
        // penalties has no lines.
        guard !list.isEmpty else { continue }
        penalties[field.name] = list.map {
          Penalty(player: $0.player, length: $0.length, givenAt: $0.givenAt, endedAt: $0.endedAt)
        }
      } else {
        values[field.name] = field.text(of: board.values[index])
      }
    }
    self.init(
      values: values, brightness: board.brightness, isBlanked: board.isBlanked, clocks: clocks,
      bootID: bootID)
    self.penalties = penalties
    self.played = played
    finishedSets = board.finishedSets
    if let period = board.spec.periodField {
      finishedPeriods = board.finishedPeriods.map {
        Period(period: board.spec.fields[period].text(of: $0.period), totals: $0.totals)
      }
    }
  }

  /// Sets `board`'s values, brightness and blanking from this state, without events or
  /// undo entries.
  ///
  /// - Returns: The names of the fields that were ignored because the board has no such
  ///   field or the value does not fit it; those fields keep their values.
  /// Penalties are reported as they stand at `now`: no event comes for what happened to
  /// them before.
  public func apply(to board: inout Scoreboard, at now: Instant = .zero) -> [String] {
    var ignored = board.restore(values: values, brightness: brightness, isBlanked: isBlanked)
    for (name, clock) in clocks.sorted(by: { $0.key < $1.key })
    where !board.restoreClock(name, clock) {
      ignored.append(name)
    }
    for (name, base) in played.sorted(by: { $0.key < $1.key }) {
      board.restorePlayed(name, base: base)
    }
    for (name, list) in penalties.sorted(by: { $0.key < $1.key })
    where !board.restorePenalties(name, list, at: now) {
      ignored.append(name)
    }
    board.restoreFinishedPeriods(finishedPeriods.map { ($0.period, $0.totals) })
    board.restoreFinishedSets(finishedSets)
    return ignored
  }

  /// The text of the state file, fields sorted by name. Names and values are single
  /// words, as the configuration makes them.
  public func encoded() -> String {
    String(decoding: encodedBytes(), as: UTF8.self)
  }

  /// `encoded()` as the bytes the file holds, made without a `String` in between: the
  /// daemon encodes the state at every save.
  public func encodedBytes() -> [UInt8] {
    var text = StateText()
    text.append("# scoreboardd state; written by scoreboardd on every change\n")
    text.append("version ")
    text.append(Self.version)
    text.newline()
    if let brightness {
      text.append("brightness ")
      text.append(brightness)
      text.newline()
    }
    if let isBlanked {
      text.append(isBlanked ? "blank on\n" : "blank off\n")
    }
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      text.append("field ")
      text.append(name)
      text.space()
      text.append(value)
      text.newline()
    }
    if let bootID {
      text.append("boot ")
      text.append(bootID)
      text.newline()
    }
    for (name, clock) in clocks.sorted(by: { $0.key < $1.key }) {
      text.append("clock ")
      text.append(name)
      text.space()
      text.append(clock.time.nanoseconds)
      if let startedAt = clock.startedAt {
        text.append(" running ")
        text.append(startedAt.nanoseconds)
      } else {
        text.append(" stopped")
      }
      text.newline()
    }
    for (name, base) in played.sorted(by: { $0.key < $1.key }) {
      text.append("played ")
      text.append(name)
      text.space()
      text.append(base.nanoseconds)
      text.newline()
    }
    for (name, list) in penalties.sorted(by: { $0.key < $1.key }) {
      for penalty in list {
        text.append("penalty ")
        text.append(name)
        text.space()
        text.append(penalty.player)
        text.space()
        text.append(penalty.length.nanoseconds)
        text.space()
        text.append(penalty.givenAt.nanoseconds)
        if let endedAt = penalty.endedAt {
          text.space()
          text.append(endedAt.nanoseconds)
        }
        text.newline()
      }
    }
    for period in finishedPeriods.prefix(Self.maximumPeriods) {
      text.append("period ")
      text.append(period.period)
      for total in period.totals {
        text.space()
        text.append(total)
      }
      text.newline()
    }
    for set in finishedSets.prefix(Self.maximumPeriods) {
      text.append("set")
      for games in set {
        text.space()
        text.append(games)
      }
      text.newline()
    }
    for command in Self.kept(commandReplies) {
      text.append("command ")
      text.append(PercentEncoding.word(command.id))
      text.space()
      text.append(PercentEncoding.word(command.reply))
      text.newline()
    }
    return text.bytes
  }

  /// The replies a file keeps of `replies`: the newest that fit its limits.
  static func kept(_ replies: [CommandReply]) -> [CommandReply] {
    let fitting = replies.filter { $0.id.utf8.count <= maximumCommandIDLength }
    return fitting.suffix(maximumCommandReplies).map { command in
      guard command.reply.utf8.count > maximumCommandReplyLength else { return command }
      var reply = ""
      for character in command.reply {
        guard reply.utf8.count + character.utf8.count <= maximumCommandReplyLength else { break }
        reply.append(character)
      }
      return CommandReply(id: command.id, reply: reply)
    }
  }

  /// Reads the text of a state file: `version` first, then `brightness`, `blank` and
  /// `field` lines in any order, each at most once. Blank lines and lines starting with
  /// `#` are skipped; words are separated by spaces or tabs; lines end with `\n` or
  /// `\r\n`.
  ///
  /// - Throws: `SavedStateError` with the line and what is wrong with it; a file that
  ///   does not end with a line break is truncated.
  public init(parsing text: String) throws(SavedStateError) {
    // Lines end with `\n`, or `\r\n` when the file was edited on another system; split as
    // bytes, since `\r\n` is a single Character to a String.
    var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { line in
        String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
      }
    guard lines.removeLast().isEmpty, !lines.isEmpty else {
      throw SavedStateError(line: lines.count + 1, problem: .truncated)
    }
    self.init()
    var firstLines: [String: Int] = [:]
    for (index, line) in lines.enumerated() {
      let number = index + 1
      let words = line.wordsBetweenSpacesAndTabs
      guard let keyword = words.first, !keyword.hasPrefix("#") else { continue }
      // The daemon writes no carriage return; one left inside a line (the line ended with
      // two, a damaged sector) would not survive being written again.
      if line.utf8.contains(UInt8(ascii: "\r")) {
        throw SavedStateError(
          line: number, problem: .badLine(line, expected: "one line break at the end of a line"))
      }
      if firstLines.isEmpty && keyword != "version" {
        throw SavedStateError(line: number, problem: .missingVersion(found: String(line)))
      }
      let named = (keyword == "field" || keyword == "clock") && words.count >= 3
      let key =
        named
        ? "field \(words[1])"
        : keyword == "command" || keyword == "played" || keyword == "penalty"
          ? "\(keyword) \(words.dropFirst())" : keyword
      if keyword == "penalty" || keyword == "period" || keyword == "set" {
        // A player may be given two penalties at once (a double minor as two).
        try read(words, line: String(line), number: number)
        continue
      }
      if let firstLine = firstLines[key] {
        let problem: SavedStateError.Problem =
          named
          ? .duplicateField(words[1], firstLine: firstLine)
          : .duplicateSetting(keyword, firstLine: firstLine)
        throw SavedStateError(line: number, problem: problem)
      }
      firstLines[key] = number
      try read(words, line: String(line), number: number)
    }
    if firstLines.isEmpty {
      throw SavedStateError(line: lines.count + 1, problem: .missingVersion(found: nil))
    }
  }

  /// Reads one line's `words` into the state.
  private mutating func read(_ words: [String], line: String, number: Int)
    throws(SavedStateError)
  {
    func bad(_ expected: String) -> SavedStateError {
      SavedStateError(line: number, problem: .badLine(line, expected: expected))
    }
    switch words[0] {
    case "version":
      guard words.count == 2 else { throw bad("'version \(Self.version)'") }
      guard Self.readableVersions.contains(words[1]) else {
        throw SavedStateError(line: number, problem: .unknownVersion(words[1]))
      }
    case "brightness":
      guard words.count == 2, let level = Int(words[1]) else {
        throw bad("'brightness' and a number, as in 'brightness 8'")
      }
      brightness = level
    case "blank":
      guard words.count == 2, ["on", "off"].contains(words[1]) else {
        throw bad("'blank on' or 'blank off'")
      }
      isBlanked = words[1] == "on"
    case "field":
      guard words.count == 3 else {
        throw bad("'field', a name and a value, as in 'field home 12'")
      }
      values[words[1]] = words[2]
    case "boot":
      guard words.count == 2 else { throw bad("'boot' and the kernel's boot id") }
      bootID = words[1]
    case "clock":
      let usage = "'clock', a name, nanoseconds and 'stopped' or 'running' and a start instant"
      guard words.count == 4 || words.count == 5, let time = Int64(words[2]), time >= 0 else {
        throw bad(usage)
      }
      switch (words[3], words.count) {
      case ("stopped", 4):
        clocks[words[1]] = ClockState(time: .nanoseconds(time))
      case ("running", 5):
        guard let start = Int64(words[4]) else { throw bad(usage) }
        clocks[words[1]] = ClockState(
          time: .nanoseconds(time), startedAt: Instant(nanoseconds: start))
      default:
        throw bad(usage)
      }
    case "played":
      guard words.count == 3, let base = Int64(words[2]) else {
        throw bad("'played', a clock's name and nanoseconds")
      }
      played[words[1]] = .nanoseconds(base)
    case "penalty":
      let numbers = words.dropFirst(2).map { Int64($0) }
      guard (5...6).contains(words.count), numbers.allSatisfy({ $0.map { $0 >= 0 } ?? false }),
        let player = Int(exactly: numbers[0]!), player <= 999, numbers[1]! > 0
      else {
        throw bad(
          "'penalty', a field's name, a player, and nanoseconds: the length, when it was "
            + "given and, ended early, when it ended")
      }
      if penalties[words[1], default: []].count >= PenaltyFormat.maximumCount {
        throw bad("at most \(PenaltyFormat.maximumCount) penalties a field")
      }
      penalties[words[1], default: []].append(
        Penalty(
          player: player, length: .nanoseconds(numbers[1]!), givenAt: .nanoseconds(numbers[2]!),
          endedAt: numbers.count == 4 ? .nanoseconds(numbers[3]!) : nil))
    case "period":
      let totals = words.dropFirst(2).map { Int($0) }
      guard (3...6).contains(words.count), totals.allSatisfy({ $0.map { $0 >= 0 } ?? false })
      else {
        throw bad("'period', the period's value and one to four score totals at its end")
      }
      if finishedPeriods.count >= Self.maximumPeriods {
        throw bad("at most \(Self.maximumPeriods) periods")
      }
      finishedPeriods.append(Period(period: words[1], totals: totals.map { $0! }))
    case "set":
      let points = words.dropFirst().map { Int($0) }
      guard words.count == 3, points.allSatisfy({ $0.map { $0 >= 0 } ?? false }) else {
        throw bad("'set' and the two teams' points of a set won")
      }
      if finishedSets.count >= Self.maximumPeriods {
        throw bad("at most \(Self.maximumPeriods) sets")
      }
      finishedSets.append(points.map { $0! })
    case "command":
      guard words.count == 3, let id = PercentEncoding.decode(words[1]),
        let reply = PercentEncoding.decode(words[2])
      else {
        throw bad("'command', an id and its reply, each percent-encoded")
      }
      // Within the limits a file is written with, so that a file read and written again
      // reads back the same.
      commandReplies.append(contentsOf: Self.kept([CommandReply(id: id, reply: reply)]))
      if commandReplies.count > Self.maximumCommandReplies {
        commandReplies.removeFirst()
      }
    default:
      throw bad(
        "'version', 'brightness', 'blank', 'field', 'boot', 'clock', 'played', 'penalty', "
          + "'period', 'set' or 'command'")
    }
  }
}
