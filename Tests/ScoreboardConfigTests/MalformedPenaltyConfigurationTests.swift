import ScoreboardConfig
import TestExpectations
import Testing

/// Penalties fields wrongly configured, and what the daemon says about it.
@Suite struct MalformedPenaltyConfigurationTests {
  /// A valid file of thirteen lines but for the team: a display of 20 cells, a game clock
  /// at cells 1-4, a 2-digit field `home` at cells 5-6 and a penalties field `pen` at
  /// cell 11 (two slots of 2 + 3 cells), whose further `lines` start at line 14.
  static func penalties(_ problem: String, _ lines: String, _ diagnostics: String)
    -> MalformedConfiguration
  {
    MalformedConfiguration(
      problem: problem,
      text: "[display main]\ndriver = terminal\ndigits = 20\n"
        + "[field game]\ntype = clock\nposition = 1\nlength = 20:00\n"
        + "[field home]\nposition = 5\ndigits = 2\n"
        + "[field pen]\ntype = penalties\nposition = 11\n" + lines,
      diagnostics: diagnostics)
  }

  static let cases: [MalformedConfiguration] = [
    penalties(
      "no team", "",
      "demo.conf:11: [field pen]: missing required key 'team'"),
    penalties(
      "a team of two words", "team = home side\n",
      "demo.conf:14: [field pen] team: expected one word, the team's name in penalty add TEAM, found \"home side\""
    ),
    penalties(
      "an unknown type of key", "team = home\nmin = 2\n",
      "demo.conf:15: [field pen] min: applies to number and list fields, not to penalties (their cells are slots: player-digits and time-digits each)"
    ),
    penalties(
      "a clock key", "team = home\nfollows = game\n",
      "demo.conf:15: [field pen] follows: applies to clocks, not to penalties (their cells are slots: player-digits and time-digits each)"
    ),
    penalties(
      "digits that are not the slots", "team = home\ndigits = 8\n",
      "demo.conf:15: [field pen] digits: a penalties field's cells are its slots: 2 of 2 + 3 cells make 10; leave 'digits' out, or set slots, player-digits and time-digits"
    ),
    penalties(
      "slots beyond the display", "team = home\nslots = 3\n",
      "demo.conf:13: [field pen] position: field needs cells 11 to 25, but display 'main' has 20 digits"
    ),
    penalties(
      "a length with tenths", "team = home\nlengths = 2:00 1:30.5\n",
      "demo.conf:15: [field pen] lengths: expected the penalty lengths the keypad offers, whole seconds up to 9:59 (time-digits = 3), such as 2:00 5:00, found \"1:30.5\""
    ),
    penalties(
      "a length too long for M:SS", "team = home\nlengths = 10:00\n",
      "demo.conf:15: [field pen] lengths: expected the penalty lengths the keypad offers, whole seconds up to 9:59 (time-digits = 3), such as 2:00 5:00, found \"10:00\""
    ),
    penalties(
      "ends-on-goal-of without minor", "team = home\nends-on-goal-of = home\n",
      "demo.conf:15: [field pen] ends-on-goal-of: needs 'minor', the length of the penalty a power-play goal ends (such as minor = 2:00)"
    ),
    penalties(
      "minor without ends-on-goal-of", "team = home\nminor = 2:00\n",
      "demo.conf:15: [field pen] minor: needs 'ends-on-goal-of', the other team's score field (such as ends-on-goal-of = away)"
    ),
    penalties(
      "an unknown clock", "team = home\nclock = gam\n",
      "demo.conf:15: [field pen] clock: unknown field 'gam'; did you mean 'game'?"),
    penalties(
      "a number field as the clock", "team = home\nclock = home\n",
      "demo.conf:15: [field pen] clock: field 'home' is not a clock (type = clock)"),
    penalties(
      "an unknown score field", "team = home\nends-on-goal-of = hme\nminor = 2:00\n",
      "demo.conf:15: [field pen] ends-on-goal-of: unknown field 'hme'; did you mean 'home'?"),
    penalties(
      "a clock as the score field", "team = home\nends-on-goal-of = game\nminor = 2:00\n",
      "demo.conf:15: [field pen] ends-on-goal-of: field 'game' is not a number field; goals are counted by number fields"
    ),
    penalties(
      "serving of none", "team = home\nserving = 0\n",
      "demo.conf:15: [field pen] serving: expected a whole number from 1 to 9, found \"0\""),
    penalties(
      "four player digits", "team = home\nplayer-digits = 4\n",
      "demo.conf:15: [field pen] player-digits: expected a whole number from 1 to 3, found \"4\""),
    penalties(
      "time-digits of 5", "team = home\ntime-digits = 5\n",
      "demo.conf:15: [field pen] time-digits: expected a whole number from 3 to 4, found \"5\""),
    penalties(
      "player-digits on a number field",
      "team = home\n[field other]\nposition = 20\ndigits = 1\nplayer-digits = 2\n",
      "demo.conf:18: [field other] player-digits: applies only to penalties fields (type = penalties)"
    ),
    penalties(
      "two fields for one team",
      "team = home\n[field pen2]\ntype = penalties\nposition = 7\nslots = 1\nplayer-digits = 1\n"
        + "team = home\n",
      "demo.conf:20: [field pen2] team: field 'pen' keeps the penalties of 'home' already"),
  ]

  @Test(arguments: cases)
  func reportsTheProblem(_ configuration: MalformedConfiguration) {
    let error = expectError(ConfigurationError.self) {
      try Configuration.parse(configuration.text, path: "demo.conf")
    }
    #expect(error?.description == configuration.diagnostics)
  }
}
