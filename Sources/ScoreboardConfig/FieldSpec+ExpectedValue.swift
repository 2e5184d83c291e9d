import ScoreboardCore

extension FieldSpec {
  /// What a value of the field must be, for messages: `a whole number from 0 to 99`, `one
  /// of the values 1, 2, 3, 4 or OT`.
  var expectedValue: String {
    switch kind {
    case .number(let format): "a whole number from \(format.minimum) to \(format.maximum)"
    case .list(let values): "one of the values \(Listing.joined(values))"
    case .clock(let format):
      "\(ClockText.expected) up to \(ClockText.text(format.length, tenths: false, minutes: format.role == .game))"
    case .penalties(let format):
      "a penalty, given with 'penalty add \(format.team) PLAYER M:SS'"
    }
  }
}
