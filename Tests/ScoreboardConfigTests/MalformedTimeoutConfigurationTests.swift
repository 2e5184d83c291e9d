import ScoreboardConfig
import TestExpectations
import Testing

/// Timeout clocks that take over the game clock's cells, and warning horns, wrongly
/// configured, and what the daemon says about it.
@Suite struct MalformedTimeoutConfigurationTests {
  /// A file of thirteen lines: a display of 6 cells, a game clock at cells 1-4, a
  /// 2-digit field `home` at cells 5-6 and a clock `timeout` of 60 s without cells, whose
  /// further `lines` start at line 14.
  static func timeout(_ problem: String, _ lines: String, _ diagnostics: String)
    -> MalformedConfiguration
  {
    MalformedConfiguration(
      problem: problem,
      text: "[display main]\ndriver = terminal\ndigits = 6\n"
        + "[field game]\ntype = clock\nposition = 1\nlength = 10:00\n"
        + "[field home]\nposition = 5\ndigits = 2\n"
        + "[field timeout]\ntype = shot-clock\nlength = 60\n" + lines,
      diagnostics: diagnostics)
  }

  /// A file of fifteen lines: a game clock at cells 1-4 of a display of 6, a break clock
  /// that takes over its cells, and the quarter at cell 6 with the game clock's lengths,
  /// whose further `lines` start at line 16.
  static func breaks(_ problem: String, _ lines: String, _ diagnostics: String)
    -> MalformedConfiguration
  {
    MalformedConfiguration(
      problem: problem,
      text: "[display main]\ndriver = terminal\ndigits = 6\n"
        + "[field game]\ntype = clock\nposition = 1\nlength = 10:00\n"
        + "[field interval]\ntype = clock\ntakes-over = game\nlength = 15:00\n"
        + "[field quarter]\nposition = 6\nvalues = 1 2 3 4\nlengths = 10:00\n" + lines,
      diagnostics: diagnostics)
  }

  static let cases: [MalformedConfiguration] = [
    timeout(
      "a clock that takes over and has a position", "takes-over = game\nposition = 1\n",
      "demo.conf:15: [field timeout] position: a clock that takes over another field's cells has none of its own; leave out display and position"
    ),
    timeout(
      "a clock that takes over an unknown field", "takes-over = gmae\n",
      "demo.conf:14: [field timeout] takes-over: unknown field 'gmae'; did you mean 'game'?"),
    timeout(
      "a clock that takes over a number field", "takes-over = home\n",
      "demo.conf:14: [field timeout] takes-over: field 'home' is not a clock; a clock takes over a clock's cells"
    ),
    timeout(
      "a clock that takes over itself", "takes-over = timeout\n",
      "demo.conf:14: [field timeout] takes-over: field 'timeout' has no cells of its own to take over"
    ),
    timeout(
      "a timeout clock without cells", "tenths-below = never\n",
      "demo.conf:11: [field timeout]: missing required key 'position'"),
    timeout(
      "warnings of one word",
      "takes-over = game\n[horn buzzer]\ndriver = terminal\nwarnings = timeout\n",
      "demo.conf:17: [horn buzzer] warnings: expected pairs of a clock and the time left on it when the horn sounds, such as timeout 10 (or game 1:00 shot 5), found \"timeout\""
    ),
    timeout(
      "warnings of a number field",
      "takes-over = game\n[horn buzzer]\ndriver = terminal\nwarnings = home 10\n",
      "demo.conf:17: [horn buzzer] warnings: field 'home' is not a clock (type = clock or shot-clock)"
    ),
    timeout(
      "warnings of an unknown clock",
      "takes-over = game\n[horn buzzer]\ndriver = terminal\nwarnings = timout 10\n",
      "demo.conf:17: [horn buzzer] warnings: unknown field 'timout'; did you mean 'timeout'?"),
    timeout(
      "a warning past the clock's length",
      "takes-over = game\n[horn buzzer]\ndriver = terminal\nwarnings = timeout 60\n",
      "demo.conf:17: [horn buzzer] warnings: expected a time left on 'timeout' above 0 and below its length, 1:00, found \"60\""
    ),
    breaks(
      "breaks without their clock", "breaks = 2:00\n",
      "demo.conf:16: [field quarter] breaks: 'breaks' and 'break-clock' go together (breaks = 2:00 15:00 2:00, break-clock = interval)"
    ),
    breaks(
      "the game clock as the break clock", "breaks = 2:00\nbreak-clock = game\n",
      "demo.conf:17: [field quarter] break-clock: clock 'game' is the game clock or follows another; a break runs on a clock of its own (such as [field interval] type = clock, takes-over = game)"
    ),
    breaks(
      "a break clock that is not a clock", "breaks = 2:00\nbreak-clock = quarter\n",
      "demo.conf:17: [field quarter] break-clock: field 'quarter' is not a clock (type = clock or shot-clock)"
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
