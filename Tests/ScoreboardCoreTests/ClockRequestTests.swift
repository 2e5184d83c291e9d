import ScoreboardCore
import Testing

/// The control socket's clock and horn requests, parsed and written back.
@Suite struct ClockRequestTests {
  @Test(arguments: [
    ("start", ControlRequest.clock(.start(clock: nil))),
    ("start game", .clock(.start(clock: "game"))), ("stop", .clock(.stop(clock: nil))),
    ("stop game", .clock(.stop(clock: "game"))), ("STOP\tgame", .clock(.stop(clock: "game"))),
    ("start-stop", .clock(.startStop(clock: nil))),
    ("start-stop shot", .clock(.startStop(clock: "shot"))),
    ("adjust game -0.1", .clock(.adjust(clock: "game", amount: .milliseconds(-100)))),
    ("adjust +1", .clock(.adjust(clock: nil, amount: .seconds(1)))),
    ("adjust shot +10.5", .clock(.adjust(clock: "shot", amount: .milliseconds(10_500)))),
    ("reset-clock", .clock(.resetClock(clock: nil, time: nil))),
    ("reset-clock shot", .clock(.resetClock(clock: "shot", time: nil))),
    ("reset-clock shot 14", .clock(.resetClock(clock: "shot", time: .seconds(14)))),
    ("reset-clock 10:00", .clock(.resetClock(clock: nil, time: .seconds(600)))),
    ("reset-clock game 0:52.4", .clock(.resetClock(clock: "game", time: .milliseconds(52_400)))),
    ("horn", .horn(nil)), ("horn main", .horn("main")), ("HORN  main", .horn("main")),
  ])
  func parses(line: String, request: ControlRequest) throws {
    let parsed = try ControlRequest(parsing: line)
    #expect(parsed == request)
    let reparsed = try ControlRequest(parsing: request.description)
    #expect(reparsed == request, "the text parses back")
  }

  @Test(arguments: [
    (ControlRequest.clock(.adjust(clock: "game", amount: .milliseconds(-100))), "adjust game -0.1"),
    (.clock(.resetClock(clock: "shot", time: .seconds(14))), "reset-clock shot 14.0"),
    (.clock(.resetClock(clock: nil, time: .seconds(600))), "reset-clock 10:00.0"),
    (.clock(.startStop(clock: nil)), "start-stop"), (.horn(nil), "horn"),
    (.horn("main"), "horn main"),
  ])
  func writes(request: ControlRequest, text: String) {
    #expect(request.description == text)
  }

  /// Lines refused, and the message each gets. Typed out: Swift 6.0 cannot infer the
  /// type of this list in reasonable time.
  static let refusedLines: [(line: String, message: String)] = [
    ("start game shot", "'start' takes an optional clock, as in 'start game'"),
    ("stop a b", "'stop' takes an optional clock, as in 'stop game'"),
    ("start-stop a b", "'start-stop' takes an optional clock, as in 'start-stop game'"),
    (
      "adjust",
      "'adjust' takes an optional clock and a signed number of seconds with at most one tenth "
        + "digit, as in 'adjust game +1' or 'adjust -0.1'"
    ),
    (
      "adjust game",
      "'adjust' takes an optional clock and a signed number of seconds with at most one tenth "
        + "digit, as in 'adjust game +1' or 'adjust -0.1'"
    ),
    (
      "adjust game 1",
      "'adjust' takes an optional clock and a signed number of seconds with at most one tenth "
        + "digit, as in 'adjust game +1' or 'adjust -0.1'"
    ),
    (
      "adjust game +0.05",
      "'adjust' takes an optional clock and a signed number of seconds with at most one tenth "
        + "digit, as in 'adjust game +1' or 'adjust -0.1'"
    ),
    (
      "adjust game +1:00",
      "'adjust' takes an optional clock and a signed number of seconds with at most one tenth "
        + "digit, as in 'adjust game +1' or 'adjust -0.1'"
    ),
    (
      "adjust a b +1",
      "'adjust' takes an optional clock and a signed number of seconds with at most one tenth "
        + "digit, as in 'adjust game +1' or 'adjust -0.1'"
    ),
    (
      "reset-clock shot 12:75",
      "'reset-clock' takes a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, 24 or 4.9) "
        + "after the clock, found '12:75'"
    ),
    (
      "reset-clock 12:75",
      "'reset-clock' takes a clock or a time M:SS, M:SS.t, SS or SS.t (such as 12:00, 0:52.4, "
        + "24 or 4.9), found '12:75'"
    ),
    (
      "reset-clock shot 14 now",
      "'reset-clock' takes an optional clock and an optional time, as in 'reset-clock shot 14'"
    ),
    ("horn main bell", "'horn' takes an optional horn, as in 'horn main'"),
  ]

  @Test(arguments: refusedLines)
  func rejects(line: String, message: String) {
    #expect(throws: ControlSyntaxError(description: message)) {
      try ControlRequest(parsing: line)
    }
  }
}
