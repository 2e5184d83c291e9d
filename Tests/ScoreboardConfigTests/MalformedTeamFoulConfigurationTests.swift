import ScoreboardConfig
import TestExpectations
import Testing

/// Team-fouls fields wrongly configured, and what the daemon says about it.
@Suite struct MalformedTeamFoulConfigurationTests {
  /// A valid file of thirteen lines: a display of 12 cells, the quarter (1 2 3 4 OT) at
  /// cell 1, a game clock at cells 3-6 and a 1-digit field `fouls` at cell 8, whose
  /// further `lines` start at line 14.
  static func fouls(_ problem: String, _ lines: String, _ diagnostics: String)
    -> MalformedConfiguration
  {
    MalformedConfiguration(
      problem: problem,
      text: "[display main]\ndriver = terminal\ndigits = 12\n"
        + "[field quarter]\nposition = 1\nvalues = 1 2 3 4 OT\n"
        + "[field game]\ntype = clock\nposition = 3\nlength = 10:00\n"
        + "[field fouls]\nposition = 8\ndigits = 1\n" + lines,
      diagnostics: diagnostics)
  }

  static let cases: [MalformedConfiguration] = [
    fouls(
      "a bonus beyond the digits", "bonus = 12\n",
      "demo.conf:14: [field fouls] bonus: expected team-foul counts from 1 to 9, each more than the one before (the bonus, then the double bonus: 7 10), found \"12\""
    ),
    fouls(
      "a double bonus below the bonus", "bonus = 7 5\n",
      "demo.conf:14: [field fouls] bonus: expected team-foul counts from 1 to 9, each more than the one before (the bonus, then the double bonus: 7 10), found \"5\""
    ),
    fouls(
      "a bonus at the minimum", "min = 2\nbonus = 2\n",
      "demo.conf:15: [field fouls] bonus: expected team-foul counts from 3 to 9, each more than the one before (the bonus, then the double bonus: 7 10), found \"2\""
    ),
    fouls(
      "resets-to of another count than resets-at",
      "period = quarter\nresets-at = 3 OT\nresets-to = 3\n",
      "demo.conf:16: [field fouls] resets-to: expected a count from 0 to 9 for each value of 'resets-at' (FIBA timeouts: resets-at = 3 5, resets-to = 3 1), found \"3\""
    ),
    fouls(
      "an unknown period field", "period = quartr\n",
      "demo.conf:14: [field fouls] period: unknown field 'quartr'; did you mean 'quarter'?"),
    fouls(
      "a clock as the period field", "period = game\n",
      "demo.conf:14: [field fouls] period: field 'game' is a clock; the periods are counted by a number or list field (such as [field quarter] with values = 1 2 3 4 OT)"
    ),
    fouls(
      "the field as its own period", "period = fouls\n",
      "demo.conf:14: [field fouls] period: a field cannot count its own periods"),
    fouls(
      "resets-at without a period", "resets-at = 2\n",
      "demo.conf:14: [field fouls] resets-at: needs 'period', the field whose values it names (such as period = quarter)"
    ),
    fouls(
      "resets-at of values the period field does not have",
      "period = quarter\nresets-at = 2 5 1\n",
      "demo.conf:15: [field fouls] resets-at: expected values of 'quarter' after its first, at whose start the fouls start again (such as 2 3 4), found \"5\"\n"
        + "demo.conf:15: [field fouls] resets-at: expected values of 'quarter' after its first, at whose start the fouls start again (such as 2 3 4), found \"1\""
    ),
    fouls(
      "a bonus on a list field", "[field half]\nposition = 10\nvalues = 1 2\nbonus = 1\n",
      "demo.conf:17: [field half] bonus: applies only to number fields, not to a field with 'values'"
    ),
    fouls(
      "a period on a clock",
      "[field shot]\ntype = shot-clock\nposition = 10\nresets = 24\nperiod = quarter\n",
      "demo.conf:18: [field shot] period: applies only to number fields that count team fouls, not to a clock"
    ),
  ]

  @Test(arguments: cases)
  func reportsTheProblem(_ configuration: MalformedConfiguration) {
    let error = expectError(ConfigurationError.self) {
      try Configuration.parse(configuration.text, path: "demo.conf")
    }
    #expect(error?.description == configuration.diagnostics)
  }

  @Test func theRulesAreRead() throws {
    let configuration = try Configuration.parse(
      MalformedTeamFoulConfigurationTests.fouls(
        "", "bonus = 5 8\nperiod = quarter\nresets-at = 2 3 4\n", ""
      ).text, path: "demo.conf")
    let fouls = try #require(configuration.scoreboard.fields.first { $0.name == "fouls" })
    #expect(fouls.teamFouls?.bonus == [5, 8])
    #expect(fouls.teamFouls?.period == "quarter")
    #expect(fouls.teamFouls?.resetsAt == [1, 2, 3])
  }
}

/// Fields that count periods wrongly configured, and what the daemon says about it.
@Suite struct MalformedPeriodConfigurationTests {
  static let cases: [MalformedConfiguration] = [
    MalformedTeamFoulConfigurationTests.fouls(
      "lengths beyond the game clock's",
      "[field half]\nposition = 10\nvalues = 1 2\nlengths = 20:00\n",
      "demo.conf:17: [field half] lengths: expected lengths of at most the game clock's, 10:00 ([field game] length), found 20:00"
    ),
    MalformedTeamFoulConfigurationTests.fouls(
      "more lengths than periods",
      "[field half]\nposition = 10\nvalues = 1 2\nlengths = 10:00 10:00 5:00\n",
      "demo.conf:17: [field half] lengths: expected at most 2 lengths, one for each of the field's values, found 3"
    ),
    MalformedTeamFoulConfigurationTests.fouls(
      "a length that is no time",
      "[field half]\nposition = 10\nvalues = 1 2\nlengths = 10:00 long\n",
      "demo.conf:17: [field half] lengths: expected the game clock's length in each period, times such as 10:00 10:00 10:00 10:00 5:00 (the last for every period after it), found \"long\""
    ),
    MalformedTeamFoulConfigurationTests.fouls(
      "two fields that count periods",
      "[field half]\nposition = 10\nvalues = 1 2\nlengths = 10:00\n"
        + "[field set]\nposition = 11\ndigits = 1\nlengths = 5:00\n",
      "demo.conf:21: [field set] lengths: only one field counts the periods, and [field half] (line 17) does already"
    ),
    MalformedTeamFoulConfigurationTests.fouls(
      "lengths on a clock",
      "[field shot]\ntype = shot-clock\nposition = 10\nresets = 24\nlengths = 24\n",
      "demo.conf:18: [field shot] lengths: applies to the field that counts the periods (such as [field quarter]), not to a clock (its time starts at 'length')"
    ),
    MalformedTeamFoulConfigurationTests.fouls(
      "a timeout clock without a team", "timeout-clock = game\n",
      "demo.conf:14: [field fouls] timeout-clock: needs 'timeouts-of', the team whose timeouts the field counts (such as timeouts-of = home)"
    ),
    MalformedTeamFoulConfigurationTests.fouls(
      "the game clock as the timeout clock", "timeouts-of = home\ntimeout-clock = game\n",
      "demo.conf:15: [field fouls] timeout-clock: clock 'game' is the game clock, which a timeout stops; the timeout's clock is one of its own (such as [field timeout] type = shot-clock, length = 60)"
    ),
    MalformedTeamFoulConfigurationTests.fouls(
      "a timeout clock that is no clock", "timeouts-of = home\ntimeout-clock = quarter\n",
      "demo.conf:15: [field fouls] timeout-clock: field 'quarter' is not a clock (type = clock or shot-clock)"
    ),
    MalformedTeamFoulConfigurationTests.fouls(
      "two fields of one team's timeouts",
      "timeouts-of = home\n[field more]\nposition = 10\ndigits = 1\ntimeouts-of = home\n",
      "demo.conf:18: [field more] timeouts-of: field 'fouls' counts the timeouts of 'home' already"
    ),
    MalformedConfiguration(
      problem: "lengths other than a clock's that counts up",
      text: "[display main]\ndriver = terminal\ndigits = 6\n"
        + "[field game]\ntype = clock\nposition = 1\nlength = 20:00\ncount = up\n"
        + "[field period]\nposition = 5\nvalues = 1 2 3\nlengths = 20:00 20:00 5:00\n",
      diagnostics:
        "demo.conf:12: [field period] lengths: the game clock [field game] counts up, from 0:00 to its length, 20:00, in every period; expected 20:00 for each period, found 5:00"
    ),
    MalformedConfiguration(
      problem: "lengths without a clock",
      text: "[display main]\ndriver = terminal\ndigits = 4\n"
        + "[field quarter]\nposition = 1\nvalues = 1 2 3 4\nlengths = 8:00\n",
      diagnostics:
        "demo.conf:7: [field quarter] lengths: no clock to load with them; add a game clock (a [field] with type = clock)"
    ),
  ]

  @Test(arguments: cases)
  func reportsTheProblem(_ configuration: MalformedConfiguration) {
    let error = expectError(ConfigurationError.self) {
      try Configuration.parse(configuration.text, path: "demo.conf")
    }
    #expect(error?.description == configuration.diagnostics)
  }
}

/// `[sets]` wrongly configured, and what the daemon says about it.
@Suite struct MalformedSetsConfigurationTests {
  /// A valid file of eighteen lines: home and away points, their sets won and a serve
  /// field; then `[sets]` at line 19, whose `lines` start at line 20.
  static func sets(_ problem: String, _ lines: String, _ diagnostics: String)
    -> MalformedConfiguration
  {
    MalformedConfiguration(
      problem: problem,
      text: "[display main]\ndriver = terminal\ndigits = 8\n"
        + "[field home]\nposition = 1\ndigits = 2\n"
        + "[field away]\nposition = 7\ndigits = 2\n"
        + "[field home-sets]\nposition = 3\ndigits = 1\n"
        + "[field away-sets]\nposition = 6\ndigits = 1\n"
        + "[field serve]\nposition = 4\nvalues = H A\n" + "[sets]\n" + lines,
      diagnostics: diagnostics)
  }

  static let cases: [MalformedConfiguration] = [
    sets(
      "nothing but the header", "",
      "demo.conf:19: [sets]: missing required key 'points'\n"
        + "demo.conf:19: [sets]: missing required key 'sets'\n"
        + "demo.conf:19: [sets]: missing required key 'wins-at'"),
    sets(
      "one team's points", "points = home\nsets = home-sets away-sets\nwins-at = 25\n",
      "demo.conf:20: [sets] points: expected the two teams' fields of points, the first team's first (such as home away), found \"home\""
    ),
    sets(
      "an unknown field", "points = home awya\nsets = home-sets away-sets\nwins-at = 25\n",
      "demo.conf:20: [sets] points: unknown field 'awya'; did you mean 'away'?"),
    sets(
      "sets counted by a list field", "points = home away\nsets = home-sets serve\nwins-at = 25\n",
      "demo.conf:21: [sets] sets: field 'serve' is not a number field; the sets won are counted by number fields"
    ),
    sets(
      "the points as the sets", "points = home away\nsets = away home\nwins-at = 25\n",
      "demo.conf:21: [sets] sets: expected fields other than those of 'points'"),
    sets(
      "a deciding set without its target",
      "points = home away\nsets = home-sets away-sets\nwins-at = 25\ndeciding-set = 5\n",
      "demo.conf:23: [sets] deciding-set: 'deciding-set' and 'deciding-wins-at' go together (volleyball: deciding-set = 5, deciding-wins-at = 15)"
    ),
    sets(
      "a serve field of numbers",
      "points = home away\nsets = home-sets away-sets\nwins-at = 25\nserve = home-sets\n",
      "demo.conf:23: [sets] serve: expected a list field of two values, the first team's first (such as values = H A); field 'home-sets' is not one"
    ),
    sets(
      "a win by nothing",
      "points = home away\nsets = home-sets away-sets\nwins-at = 25\nwin-by = 0\n",
      "demo.conf:23: [sets] win-by: expected a whole number from 1 to 99, found \"0\""),
  ]

  @Test(arguments: cases)
  func reportsTheProblem(_ configuration: MalformedConfiguration) {
    let error = expectError(ConfigurationError.self) {
      try Configuration.parse(configuration.text, path: "demo.conf")
    }
    #expect(error?.description == configuration.diagnostics)
  }
}
