import ScoreboardCore

/// A scoreboard fed what came from outside, as the daemon feeds it, and checked: after
/// every step, values within their fields' limits and brightness 0-15; when a batch is
/// settled, a frame per display of its size before and after its deadlines, and
/// every text the daemon makes of the state (status line, JSON, event lines, state
/// file) reads back to the same state.
///
/// A broken rule stops the process (`precondition`), which libFuzzer reports as a crash.
public struct CheckedBoard {
  public private(set) var board: Scoreboard
  /// What the keys do.
  public let keymap: Keymap
  /// The state whose texts were last read back, so that an unchanged state is not read
  /// back again.
  private var checkedState: (saved: SavedState, editing: Int?)?

  /// A board of `spec` at its defaults, whose keys do what `keymap` says.
  public init(spec: ScoreboardSpec, keymap: Keymap = SampleBoard.keymap) {
    board = Scoreboard(spec: spec)
    self.keymap = keymap
    checkValues()
  }

  /// What a keypad's event does: its action through the keymap, at the event's time.
  public mutating func handle(_ event: KeyEvent) {
    guard let action = keymap.action(for: event) else { return }
    perform(action, at: event.time)
  }

  /// Carries out `action` at `time`. A request the board refuses is an answer, not a
  /// fault.
  public mutating func perform(_ action: Action, at time: Instant) {
    let events = (try? board.perform(action, at: time)) ?? []
    report(events)
    checkValues()
  }

  /// What the control socket's `reset` does.
  public mutating func resetAll(at time: Instant) {
    report(board.resetAll(at: time))
    checkValues()
  }

  /// Restores a saved state, as the daemon does at start.
  public mutating func restore(_ state: SavedState) {
    _ = state.apply(to: &board)
    checkValues()
  }

  /// Renders the board at `time`, then lets time run through its next few deadlines, as
  /// the poll loop sleeps until each, and renders it at the last; then reads back the
  /// state's texts.
  public mutating func settle(after time: Instant) {
    var now = time
    checkFrames(at: now)
    for _ in 0..<4 {
      guard let deadline = board.nextDeadline(after: now) else { break }
      precondition(deadline > now, "a deadline at or before now: \(deadline) after \(now)")
      report(board.advance(to: deadline))
      now = deadline
      checkValues()
    }
    if now != time {
      checkFrames(at: now)
    }
    checkTexts()
  }

  /// The lines watchers would get for `events`.
  private func report(_ events: [ScoreboardEvent]) {
    for event in events {
      if let line = ControlEvent(event, spec: board.spec)?.line {
        precondition(!line.contains("\n"), "an event line with a line break: \(line)")
      }
    }
  }

  private func checkValues() {
    for (field, value) in zip(board.spec.fields, board.values) {
      precondition(field.valueRange.contains(value), "\(field.name) holds \(value)")
    }
    precondition((0...Action.maximumBrightness).contains(board.brightness))
  }

  private func checkFrames(at now: Instant) {
    let frames = board.spec.displays.map { Renderer.frame(of: board, display: $0, at: now) }
    for (frame, display) in zip(frames, board.spec.displays) {
      precondition(frame.cells.count == display.cellCount, "a frame of the wrong size")
    }
  }

  private mutating func checkTexts() {
    let spec = board.spec
    let saved = SavedState(from: board.settled)
    let editing = board.session?.field
    if let checkedState, checkedState.saved == saved, checkedState.editing == editing {
      return
    }
    checkedState = (saved, editing)

    // The state file the daemon would write reads back to the same state.
    let text = saved.encoded()
    guard let reread = try? SavedState(parsing: text) else {
      preconditionFailure("the state file written does not read back: \(text)")
    }
    precondition(reread == saved, "the state file reads back different: \(text)")
    var restored = Scoreboard(spec: spec)
    precondition(reread.apply(to: &restored).isEmpty, "saved values that do not fit: \(text)")
    precondition(restored.values == board.values, "restored values differ: \(text)")

    // The status line scoreboardctl reads back to the same status.
    let status = ControlStatus(
      board, displays: spec.displays.map { .init(name: $0.name, isOnline: true) },
      keypads: [.init(name: "fuzz", isOnline: false)],
      stateFile: .failing(since: "2026-12-01T10:32:05+01:00"))
    let line = status.line()
    precondition((try? ControlStatus(parsing: line)) == status, "status reads back: \(line)")
    TextCheck.requireValidJSONText(status.json())
  }
}
