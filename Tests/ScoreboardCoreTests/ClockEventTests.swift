import ScoreboardCore
import Testing

/// What `watch` tells about clocks and horns.
@Suite struct ClockEventTests {
  static let spec = ClockFixtures.spec()

  @Test(arguments: [
    (
      ScoreboardEvent.clockStarted(field: "game", time: .seconds(600)),
      "event clock game started 10:00.0"
    ),
    (
      .clockStopped(field: "game", time: .nanoseconds(594_123_456_789)),
      "event clock game stopped 9:54.2"
    ),
    (.clockStopped(field: "shot", time: .milliseconds(4_950)), "event clock shot stopped 5.0"),
    (.clockRanOut(field: "game"), "event clock game zero 0.0"),
    (.clockRanOut(field: "shot"), "event clock shot zero 0.0"),
    (
      .clockChanged(field: "game", from: .seconds(720), to: .seconds(600)),
      "event value game 10:00.0"
    ),
    (
      .clockChanged(field: "game", from: .seconds(600), to: .milliseconds(52_400)),
      "event value game 52.4"
    ),
    (.clockChanged(field: "shot", from: .seconds(24), to: .seconds(14)), "event value shot 14.0"),
    (.hornChanged(horn: "main", sounding: true), "event horn main on"),
    (.hornChanged(horn: "buzzer", sounding: false), "event horn buzzer off"),
  ])
  func clockAndHornEventsBecomeWatchLines(event: ScoreboardEvent, line: String) {
    #expect(ControlEvent(event, spec: Self.spec)?.line == line)
  }

  @Test func aCountUpClockRunsOutAtItsLength() {
    let spec = ClockFixtures.spec(
      [ClockFixtures.game(length: .seconds(1200), direction: .up)], horns: [])
    #expect(
      ControlEvent(.clockRanOut(field: "game"), spec: spec)?.line == "event clock game zero 20:00.0"
    )
  }

  @Test func eventsOfClocksThatAreNotInTheSpecAreLeftOut() {
    let events: [ScoreboardEvent] = [
      .clockStarted(field: "home", time: .zero), .clockStopped(field: "gone", time: .zero),
      .clockRanOut(field: "home"), .clockChanged(field: "gone", from: .zero, to: .zero),
    ]
    #expect(events.compactMap { ControlEvent($0, spec: Self.spec) }.isEmpty)
  }

  @Test func aGameInEvents() throws {
    var board = ClockFixtures.board(game: .seconds(3))
    var events = try board.run(.start(clock: nil), at: instant(1))
    events += board.advance(to: instant(4))
    events += board.advance(to: instant(6))
    events += try board.run(.resetClock(clock: "shot", time: .seconds(14)), at: instant(7))
    #expect(
      events.compactMap { ControlEvent($0, spec: board.spec)?.line } == [
        "event clock game started 3.0", "event clock shot started 24.0",
        "event clock game zero 0.0",
        "event clock shot stopped 21.0", "event horn main on", "event horn main off",
        "event value shot 14.0",
      ])
  }
}
