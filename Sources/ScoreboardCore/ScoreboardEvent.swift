/// Something that happened to the scoreboard, reported by `Scoreboard.perform` and
/// `Scoreboard.advance` for logs, persistence and control-socket watchers.
public enum ScoreboardEvent: Hashable, Sendable {
  /// An edit session opened on a field.
  case editingBegan(field: String)
  /// The typed entry changed; `text` is what the field shows now.
  case editingChanged(field: String, text: String)
  /// The edit session ended: committed (the value may be unchanged) or cancelled.
  case editingEnded(field: String, committed: Bool)
  /// A field's value changed (on commit, a direct action, undo or reset only).
  /// Values are numbers, or indices into a list field's values.
  case valueChanged(field: String, from: Int, to: Int)
  /// A key was refused because the result would break the field's limits.
  case refused(field: String)
  /// The focus moved to another field.
  case focusChanged(field: String)
  case brightnessChanged(Int)
  case blankChanged(Bool)
  /// A first `reset` press: a second one within the reset window resets.
  case resetArmed
  /// A clock started running from `time`.
  case clockStarted(field: String, time: Duration)
  /// A clock was stopped, showing `time` (exact, not rounded).
  case clockStopped(field: String, time: Duration)
  /// A clock reached zero (its end, counting up) and stopped there by itself.
  case clockRanOut(field: String)
  /// A clock was set, adjusted, reset or its change undone.
  case clockChanged(field: String, from: Duration, to: Duration)
  /// A horn began or stopped sounding.
  case hornChanged(horn: String, sounding: Bool)
  /// A team's penalty was given, started or stopped serving, ended, or was taken off.
  case penaltyChanged(team: String, player: Int, length: Duration, PenaltyChange)

  /// What happened to a penalty.
  public enum PenaltyChange: String, Hashable, Sendable {
    case added
    /// It began to count down.
    case started
    /// It waits again (the game clock was corrected back to before its start).
    case waiting
    /// It was served, or ended early.
    case ended
    /// It was taken off (`penalty remove`, or undone).
    case removed
  }
}
