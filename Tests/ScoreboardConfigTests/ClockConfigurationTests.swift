import ScoreboardConfig
import ScoreboardCore
import ScoreboardSettings
import TestExpectations
import Testing

/// A basketball configuration: a game clock with tenths, a shot clock following it, a
/// horn on a GPIO line and the terminal's bell, and the keys that run them.
@Suite struct ClockConfigurationTests {
  /// The configuration, with `resetKey` bound to KEY_R.
  static func basketball(resetKey: String = "reset-clock shot 24") -> String {
    """
    [display main]
    driver = terminal
    digits = 8

    [field game]
    type = clock
    position = 1
    length = 10:00
    tenths-below = 1:00

    [field shot]
    type = shot-clock
    position = 5
    resets = 24 14
    follows = game

    [field home]
    position = 7
    digits = 2

    [horn main]
    driver = gpio
    line = GPIO18
    active-low = yes
    clocks = game
    duration = 2s

    [horn bell]
    driver = terminal
    clocks = shot
    duration = 500ms
    hold-limit = 3s
    click = yes
    click-duration = 10ms

    [keymap pad]
    KEY_SPACE = start-stop
    KEY_R = \(resetKey)
    KEY_H = horn main
    KEY_KPPLUS = adjust +1
    KEY_KPMINUS = adjust game -0.1
    KEY_S = set game 5:00
    KEY_B = horn

    [keypad pad]
    driver = terminal
    keymap = pad
    """
  }

  @Test func readsTheClocksHornsAndKeys() throws {
    let configuration = try Configuration.parse(Self.basketball(), path: "basketball.conf")
    let fields = configuration.scoreboard.fields
    #expect(fields.map(\.name) == ["game", "shot", "home"])
    #expect(
      fields[0]
        == FieldSpec(
          name: "game", label: "GAME", display: "main", position: 0, width: 4,
          kind: .clock(ClockFormat(role: .game, length: .seconds(600), tenthsBelow: .seconds(60))),
          defaultValue: 0))
    #expect(
      fields[1].kind
        == .clock(
          ClockFormat(
            role: .shot, length: .seconds(24), tenthsBelow: .seconds(5),
            resets: [.seconds(24), .seconds(14)], follows: "game")))
    #expect(fields[1].position == 4 && fields[1].width == 2)
    #expect(configuration.scoreboard.mainClock == 0)
    #expect(
      configuration.horns == [
        HornConfiguration(
          name: "main", driver: .gpio(line: .name("GPIO18"), activeLow: true),
          spec: HornSpec(name: "main", clocks: ["game"], duration: .seconds(2)), line: 21),
        HornConfiguration(
          name: "bell", driver: .terminal,
          spec: HornSpec(
            name: "bell", clocks: ["shot"], duration: .milliseconds(500), holdLimit: .seconds(3)),
          clicks: true, clickDuration: .milliseconds(10), line: 28),
      ])
    #expect(configuration.scoreboard.horns == configuration.horns.map(\.spec))
    #expect(
      configuration.keymaps["pad"]?.bindings == [
        Key("KEY_SPACE")!: .startStop(clock: nil),
        Key("KEY_R")!: .resetClock(clock: "shot", time: .seconds(24)),
        Key("KEY_H")!: .horn("main"),
        Key("KEY_KPPLUS")!: .adjust(clock: nil, amount: .seconds(1)),
        Key("KEY_KPMINUS")!: .adjust(clock: "game", amount: .milliseconds(-100)),
        Key("KEY_S")!: .set(field: "game", value: "5:00"),
        Key("KEY_B")!: .horn(nil),
      ])
  }

  @Test(arguments: [
    (
      "count = up\nlength = 20:00\ntenths-below = never",
      ClockFormat(role: .game, direction: .up, length: .seconds(1200), tenthsBelow: .zero)
    ),
    (
      "length = 12:00\ntenths-below = always",
      ClockFormat(role: .game, length: .seconds(720), tenthsBelow: .seconds(6_000))
    ),
    (
      "length = 8:00\nentry = overwrite\ncommit-on-last-digit = no",
      ClockFormat(role: .game, length: .seconds(480), entry: .overwrite, commitOnLastDigit: false)
    ),
    (
      "length = 0:52.4\ntenths-below = 10.5",
      ClockFormat(role: .game, length: .milliseconds(52_400), tenthsBelow: .milliseconds(10_500))
    ),
    ("length = 99:59", ClockFormat(role: .game, length: .seconds(5_999))),
  ])
  func readsTheKeysOfAGameClock(lines: String, format: ClockFormat) throws {
    let text =
      "[display main]\ndriver = terminal\ndigits = 4\n[field game]\ntype = clock\nposition = 1\n"
      + lines + "\n"
    let configuration = try Configuration.parse(text, path: "clock.conf")
    #expect(configuration.scoreboard.fields.first?.kind == .clock(format))
  }

  @Test func aShotClockWithALengthAndNoResetsStartsAtItsLength() throws {
    let text = """
      [display main]
      driver = terminal
      digits = 3
      [field shot]
      type = shot-clock
      position = 1
      digits = 3
      length = 30
      blank-when-less-game-time = no
      """
    let format = try Configuration.parse(text, path: "shot.conf").scoreboard.fields.first?
      .clockFormat
    #expect(
      format == ClockFormat(role: .shot, length: .seconds(30), blanksWhenFollowedHasLess: false))
    #expect(format?.startTime == .seconds(30))
  }

  @Test func aResetClockWithoutANameIsCheckedAgainstTheMainClock() throws {
    // The game clock is the main clock: 30 fits its 10:00, not the shot clocks' 24,
    // whichever order the parser keeps the fields in.
    let shotClocks = ["a", "b", "c", "d", "e"].enumerated().map { index, name in
      "[field \(name)]\ntype = shot-clock\nposition = \(5 + 2 * index)\nresets = 24\nfollows = game\n"
    }
    let text =
      "[display main]\ndriver = terminal\ndigits = 14\n"
      + shotClocks.joined()
      + "[field game]\ntype = clock\nposition = 1\nlength = 10:00\n"
      + "[keymap pad]\nKEY_R = reset-clock 30\n"
    let configuration = try Configuration.parse(text, path: "basketball.conf")
    #expect(configuration.scoreboard.mainClock == 5)
    #expect(
      configuration.keymaps["pad"]?.bindings[Key("KEY_R")!]
        == .resetClock(clock: nil, time: .seconds(30)))
  }
}
