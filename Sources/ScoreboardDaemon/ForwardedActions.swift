import ScoreboardCore
import ScoreboardLogic

/// What a mirror's keys and control clients did, as requests for the board it mirrors:
/// the values they committed (`set home 13`), the clocks they started and stopped,
/// brightness, blanking, the horn, and the penalties given or taken off. Typing stays on the mirror's own digits until it
/// is committed; what the mirrored board itself sent is not sent back.
enum ForwardedActions {
  /// The requests for the events that keypads and control clients caused.
  /// The source of what the mirrored board sent: `mirror of scoreboardd/court-1`.
  static let mirrorSource = "mirror of "

  static func requests(
    for events: [SourcedEvent], spec: ScoreboardSpec
  ) -> [ControlRequest] {
    events.compactMap { sourced in
      guard let source = sourced.source, !source.hasPrefix(Self.mirrorSource) else { return nil }
      switch sourced.event {
      case .valueChanged(let name, _, let value):
        return spec.field(named: name).map { .set(field: name, value: $0.text(of: value)) }
      case .clockStarted(let name, _):
        return .clock(.start(clock: name))
      case .clockStopped(let name, _):
        return .clock(.stop(clock: name))
      case .clockChanged(let name, _, let time):
        return spec.field(named: name)?.clockFormat.map {
          .set(field: name, value: $0.exactText(time))
        }
      case .brightnessChanged(let level):
        return .brightness(.to(level))
      case .blankChanged(let blanked):
        return .blank(blanked)
      case .hornChanged(let name, true):
        return .horn(name)
      case .penaltyChanged(let team, let player, let length, .added):
        return .penalty(.add(team: team, player: player, length: length))
      case .penaltyChanged(let team, let player, _, .removed):
        return .penalty(.remove(team: team, player: player))
      default:
        return nil
      }
    }
  }
}
