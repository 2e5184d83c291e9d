extension Renderer {
  /// Whether each indicator light of `display` is lit on `board`: a light without an
  /// indicator, or whose field is not on the board, is dark.
  public static func indicators(
    of board: Scoreboard, display: DisplayLayout, at now: Instant = .zero
  ) -> [Bool] {
    let fields = board.spec.fields
    func index(of name: String) -> Int? {
      fields.firstIndex { $0.name == name }
    }
    return display.indicators.map { indicator in
      switch indicator {
      case .value(let name, let value)?: index(of: name).map { board.values[$0] == value } ?? false
      case .running(let name)?: index(of: name).flatMap { board.clocks[$0]?.isRunning } ?? false
      case .bonus(let name, let level)?:
        index(of: name).map { board.bonusLevel(of: $0) >= level } ?? false
      case .powerPlay(let name)?: index(of: name).map { board.isOnPowerPlay($0, at: now) } ?? false
      case nil: false
      }
    }
  }
}
