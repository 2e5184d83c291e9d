/// What lights one indicator light of a display (an LED of a TM1638 board): a field's
/// committed value, or a running clock.
public enum Indicator: Hashable, Sendable {
  /// Lit while the committed value of field `field` is `value` (a number, or the index
  /// of a list value).
  case value(field: String, equals: Int)
  /// Lit while clock `clock` runs.
  case running(clock: String)
  /// Lit while the team fouls of field `field` reach its `level`th bonus threshold (1:
  /// the bonus, 2: the double bonus).
  case bonus(field: String, level: Int)
  /// Lit while the team of penalties field `field` is on the power play: another team
  /// has more penalties serving.
  case powerPlay(field: String)
}
