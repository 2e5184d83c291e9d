import ScoreboardCore
import Testing

/// The `status` line of a board with clocks and horns.
@Suite struct ClockStatusTests {
  static let devices = (
    displays: [ControlStatus.Device(name: "main", isOnline: true)],
    keypads: [ControlStatus.Device(name: "numpad", isOnline: true)]
  )

  @Test func statusNamesTheClocksAndHorns() throws {
    var board = ClockFixtures.board()
    try board.run(.start(clock: nil), at: instant(1))
    try board.run(.stop(clock: "shot"), at: instant(3, 250_000_000))
    try board.run(.horn("buzzer"), at: instant(4))
    let status = ControlStatus(
      board, displays: Self.devices.displays, keypads: Self.devices.keypads, stateFile: .saved,
      at: instant(25, 850_000_000))
    #expect(
      status.line()
        == "ok game=11:35.2 shot=21.8 home=0 brightness=8 blank=off editing=- "
        + "displays=main:online keypads=numpad:online state-file=saved "
        + "clocks=game:running,shot:stopped horns=main:off,buzzer:off",
      "the held horn key reached its 5 s limit")
    let sounding = ControlStatus(
      board, displays: [], keypads: [], stateFile: .none, at: instant(8))
    #expect(
      sounding.horns == [.init(name: "main", isOn: false), .init(name: "buzzer", isOn: true)])
    #expect(
      sounding.line().hasSuffix(
        " state-file=none clocks=game:running,shot:stopped horns=main:off,buzzer:on"))
    let parsed = try ControlStatus(parsing: status.line())
    #expect(parsed == status)
    let parsedSounding = try ControlStatus(parsing: sounding.line())
    #expect(parsedSounding == sounding)
  }

  @Test func aBoardWithoutClocksHasTheLineItAlwaysHad() throws {
    var board = Scoreboard(spec: Fixtures.spec())
    try board.run(.set(field: "home", value: "12"), at: instant(0))
    let status = ControlStatus(
      board, displays: Self.devices.displays, keypads: Self.devices.keypads, stateFile: .saved,
      at: instant(1))
    #expect(
      status.line()
        == "ok home=12 away=0 period=1 brightness=8 blank=off editing=- displays=main:online "
        + "keypads=numpad:online state-file=saved")
    #expect(status.clocks.isEmpty && status.horns.isEmpty)
    #expect(!status.json().contains("clocks"))
  }

  @Test(arguments: [
    "ok brightness=8 blank=off editing=- displays=- keypads=- state-file=saved clocks=game:running",
    "ok brightness=8 blank=off editing=- displays=- keypads=- state-file=saved horns=main:on",
    "ok game=1:00.0 brightness=8 blank=off editing=game displays=- keypads=- state-file=saved clocks=game:stopped,shot:running horns=main:off",
  ])
  func linesWithClocksOrHornsRoundTrip(line: String) throws {
    let status = try ControlStatus(parsing: line)
    #expect(status.line() == line)
  }

  @Test(arguments: [
    (
      "ok brightness=8 blank=off editing=- displays=- keypads=- state-file=saved clocks=game:on",
      "expected clocks=NAME:running|stopped,..., found 'clocks=game:on'"
    ),
    (
      "ok brightness=8 blank=off editing=- displays=- keypads=- state-file=saved clocks=",
      "expected clocks=NAME:running|stopped,..., found 'clocks='"
    ),
    (
      "ok brightness=8 blank=off editing=- displays=- keypads=- state-file=saved horns=main:running",
      "expected horns=NAME:on|off,..., found 'horns=main:running'"
    ),
  ])
  func refusesBadClockOrHornWords(line: String, message: String) {
    #expect(throws: ControlSyntaxError(description: message)) {
      try ControlStatus(parsing: line)
    }
  }

  @Test func jsonHasTheClocksAndHorns() throws {
    let board = ClockFixtures.board()
    let json = ControlStatus(board, displays: [], keypads: [], stateFile: .saved).json()
    #expect(
      json.hasSuffix(
        #""clocks":{"game":{"running":false},"shot":{"running":false}},"#
          + #""horns":{"main":{"sounding":false},"buzzer":{"sounding":false}}}"#))
    #expect(json.contains(#""game":"12:00.0""#))
  }
}
