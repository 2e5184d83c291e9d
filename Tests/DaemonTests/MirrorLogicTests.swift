import ScoreboardCore
import Testing

@testable import ScoreboardDaemon
@testable import ScoreboardLogic

/// A mirror board's logic: the mirrored state becomes the board's, each change an event
/// with the mirror as its source; and what a second desk's keys commit becomes requests
/// for the board it mirrors, never what came from that board.
@Suite struct MirrorLogicTests {
  static let source = ForwardedActions.mirrorSource + "scoreboardd/court-1"

  static func logic() -> DaemonLogic {
    DaemonLogic(
      board: Scoreboard(spec: DaemonLogicTests.clockSpec()),
      keymaps: [("buttons", DaemonLogicTests.clockKeymap)])
  }

  @Test func aMirroredStateBecomesTheBoardsWithEvents() {
    var logic = Self.logic()
    let state = SavedState(
      values: ["home": "12"], brightness: 5,
      clocks: ["game": ClockState(time: .seconds(600), startedAt: .seconds(1))])
    let reaction = logic.step(.mirrored(state, source: Self.source), at: .seconds(3))
    #expect(logic.board.text(of: "home") == "12")
    #expect(logic.board.text(of: "game", at: .seconds(3)) == "9:58.0")
    #expect(reaction.changesState)
    #expect(reaction.events.allSatisfy { $0.source == Self.source })
    #expect(
      reaction.events.map(\.event) == [
        .clockStarted(field: "game", time: .seconds(598)),
        .valueChanged(field: "home", from: 0, to: 12), .brightnessChanged(5),
      ])
    // The clock runs on by itself: the next second is a deadline.
    #expect(reaction.nextDeadline == .seconds(4))

    // The same state again changes nothing; a stop is one event.
    #expect(logic.step(.mirrored(state, source: Self.source), at: .seconds(4)).events.isEmpty)
    let stopped = SavedState(
      values: ["home": "12"], brightness: 5, clocks: ["game": ClockState(time: .seconds(595))])
    let stop = logic.step(.mirrored(stopped, source: Self.source), at: .seconds(6))
    #expect(stop.events.map(\.event) == [.clockStopped(field: "game", time: .seconds(595))])
  }

  @Test func whatADeskCommitsIsForwardedAndWhatCameFromTheMasterIsNot() {
    let spec = DaemonLogicTests.clockSpec()
    let events: [(event: ScoreboardEvent, source: String?)] = [
      (.valueChanged(field: "home", from: 3, to: 4), "keypad buttons"),
      (.editingBegan(field: "home"), "keypad buttons"),
      (.clockStarted(field: "game", time: .seconds(600)), "keypad buttons"),
      (.clockStopped(field: "game", time: .milliseconds(583_400)), "control client 2"),
      (
        .clockChanged(field: "game", from: .seconds(600), to: .milliseconds(52_400)),
        "keypad buttons"
      ),
      (.valueChanged(field: "home", from: 4, to: 9), Self.source),
      (.clockRanOut(field: "game"), nil),
      (.brightnessChanged(3), "keypad buttons"), (.blankChanged(true), "keypad buttons"),
    ]
    #expect(
      ForwardedActions.requests(
        for: events.map { SourcedEvent($0.event, source: $0.source) }, spec: spec
      ).map(\.description) == [
        "set home 4", "start game", "stop game", "set game 52.4", "brightness 3", "blank on",
      ])
  }
}
