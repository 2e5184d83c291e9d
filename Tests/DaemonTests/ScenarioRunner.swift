import ScoreboardConfig
import ScoreboardCore
import ScoreboardLogic

/// Plays a `Scenario` through the real configuration parser and the daemon's logic in
/// virtual time: before each step every deadline of the board up to the step's time comes
/// due at its own instant, as the loop would wake for it, and keys are read at the
/// instant they are stamped.
struct ScenarioRunner {
  private var logic: DaemonLogic
  private let keypad: String
  private let file: String
  /// Event lines (`value home 12`) not yet matched by an expectation.
  private var pendingEvents: [String] = []
  private var refusals = 0
  private var lastAnswer: ControlResponse?

  /// Reads the scenario's configuration; its errors are the parser's own.
  init(_ scenario: Scenario, file: String) throws {
    let configuration: Configuration
    do {
      configuration = try Configuration.parse(scenario.configuration, path: file)
    } catch {
      throw ScenarioError("\(file): the configuration is refused:\n\(error)")
    }
    guard let first = configuration.keypads.first else {
      throw ScenarioError("\(file): the configuration has no keypad for the keys")
    }
    keypad = first.name
    self.file = file
    logic = DaemonLogic(
      board: Scoreboard(spec: configuration.scoreboard),
      keymaps: configuration.keypads.map { ($0.name, $0.keymap) })
    logic.notesKeys = false
    // The daemon's first step, at its start.
    record(logic.step(.deadline, at: .zero))
  }

  /// Plays every step; the failures, each naming its line, or none.
  mutating func run(_ steps: [Scenario.Step]) -> [String] {
    var failures: [String] = []
    for step in steps {
      passTime(to: step.time)
      if let failure = perform(step.action, at: step.time) {
        failures.append("\(file):\(step.line) at \(Self.seconds(step.time)) s: \(failure)")
      }
    }
    return failures
  }

  /// The deadlines up to `time`, each at its instant.
  private mutating func passTime(to time: Instant) {
    var now = logic.time
    while let deadline = logic.board.nextDeadline(after: now), deadline <= time {
      record(logic.step(.deadline, at: deadline))
      now = deadline
    }
  }

  /// Carries out or checks one action; what failed, or nil.
  private mutating func perform(_ action: Scenario.Action, at time: Instant) -> String? {
    switch action {
    case .key(let key, let down, let up):
      var events: [KeyEvent] = []
      if down { events.append(KeyEvent(keypad: keypad, key: key, kind: .press, time: time)) }
      if up { events.append(KeyEvent(keypad: keypad, key: key, kind: .release, time: time)) }
      record(logic.step(.keys(events[...]), at: time))
    case .type(let keys):
      let events = keys.flatMap { key in
        [
          KeyEvent(keypad: keypad, key: key, kind: .press, time: time),
          KeyEvent(keypad: keypad, key: key, kind: .release, time: time),
        ]
      }
      record(logic.step(.keys(events[...]), at: time))
    case .control(let request):
      let reaction = logic.step(.request(request, client: "scenario"), at: time)
      record(reaction)
      lastAnswer = reaction.answer
      if reaction.answer == nil {
        return "'\(request)' is answered by the daemon, not its logic: not in a scenario"
      }
    case .expectDisplay(let name, let text):
      guard let layout = logic.board.spec.displays.first(where: { $0.name == name }) else {
        return "no display named '\(name)'"
      }
      let frame = Renderer.frame(of: logic.board, display: layout, at: time)
      // A blanked display is dark whatever its cells hold.
      let shown = frame.isBlank ? String(repeating: " ", count: frame.cells.count) : frame.text
      if shown != text { return "\(name) shows \"\(shown)\", expected \"\(text)\"" }
    case .expectEvent(let line):
      guard let index = pendingEvents.firstIndex(of: line) else {
        return "no event '\(line)'; came since the last one expected: "
          + (pendingEvents.isEmpty ? "none" : pendingEvents.joined(separator: ", "))
      }
      pendingEvents.removeFirst(index + 1)
    case .expectNoEvent:
      if !pendingEvents.isEmpty {
        return "events came: \(pendingEvents.joined(separator: ", "))"
      }
    case .expectAnswer(let line):
      guard let answer = lastAnswer else { return "no request was answered" }
      if answer.line != line { return "the answer is '\(answer.line)', expected '\(line)'" }
    case .expectHorn(let name, let sounding):
      guard let index = logic.board.spec.horns.firstIndex(where: { $0.name == name }) else {
        return "no horn named '\(name)'"
      }
      let actual = logic.board.hornIsSounding(index, at: time)
      if actual != sounding { return "the horn \(name) is \(actual ? "on" : "off")" }
    case .expectValue(let field, let text):
      guard let value = logic.board.text(of: field, at: time) else {
        return "no field named '\(field)'"
      }
      if value != text { return "\(field) is '\(value)', expected '\(text)'" }
    case .expectRefused:
      if refusals == 0 { return "nothing was refused" }
      refusals = 0
    case .expectLights(let name, let pattern):
      guard let layout = logic.board.spec.displays.first(where: { $0.name == name }) else {
        return "no display named '\(name)'"
      }
      let lit = Renderer.frame(of: logic.board, display: layout, at: time).indicators
      let shown = String(lit.map { $0 ? "1" : "0" })
      if shown != pattern { return "\(name)'s lights are \(shown), expected \(pattern)" }
    }
    return nil
  }

  /// Keeps what a step did for the expectations.
  private mutating func record(_ reaction: DaemonLogic.Reaction) {
    for event in reaction.events.map(\.event) {
      if case .refused = event { refusals += 1 }
      if let line = ControlEvent(event, spec: logic.board.spec)?.line {
        pendingEvents.append(String(line.dropFirst("event ".count)))
      }
    }
    refusals += reaction.refusals.count
  }

  /// `12.345` for an instant 12.345 s after the start, `2.0` for 2 s.
  private static func seconds(_ instant: Instant) -> String {
    let nanoseconds = instant.nanoseconds
    var fraction = String(nanoseconds % 1_000_000_000)
    fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
    while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(nanoseconds / 1_000_000_000).\(fraction)"
  }
}
