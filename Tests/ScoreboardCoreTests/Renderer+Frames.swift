import ScoreboardCore

extension Renderer {
  /// The frames of every display, in `spec.displays` order, as the daemon draws each.
  static func frames(of board: Scoreboard, at now: Instant) -> [Frame] {
    board.spec.displays.map { frame(of: board, display: $0, at: now) }
  }
}
