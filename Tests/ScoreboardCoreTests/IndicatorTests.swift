import ScoreboardCore
import Testing

/// A display's indicator lights, lit by the renderer from the committed values and the
/// running clocks.
@Suite struct IndicatorTests {
  static let spec = ScoreboardSpec(
    fields: [ClockFixtures.game(), ClockFixtures.home, Fixtures.period],
    displays: [
      DisplayLayout(
        name: "main", cellCount: 8,
        indicators: [
          .running(clock: "game"), nil, .value(field: "period", equals: 4),
          .value(field: "home", equals: 3), .value(field: "away", equals: 1),
        ])
    ])

  static func lights(_ board: Scoreboard, at ms: Int64) -> [Bool] {
    Renderer.frame(of: board, display: spec.displays[0], at: .milliseconds(ms)).indicators
  }

  @Test func lightsFollowTheValuesAndTheClock() throws {
    var board = Scoreboard(spec: Self.spec)
    #expect(Self.lights(board, at: 0) == [false, false, false, false, false])
    _ = try board.perform(.start(clock: nil), at: .milliseconds(10))
    _ = try board.perform(.set(field: "period", value: "OT"), at: .milliseconds(10))
    _ = try board.perform(.add(field: "home", amount: 3), at: .milliseconds(10))
    #expect(
      Self.lights(board, at: 20) == [true, false, true, true, false],
      "a light of a field that is not on the board stays dark")
    _ = try board.perform(.stop(clock: nil), at: .milliseconds(30))
    #expect(Self.lights(board, at: 40) == [false, false, true, true, false])
  }

  @Test func aValueBeingTypedIsNotYetTheValue() throws {
    var board = Scoreboard(spec: Self.spec)
    _ = try board.perform(.select(field: "home"), at: .zero)
    _ = try board.perform(.digit(3), at: .zero)
    #expect(Self.lights(board, at: 0)[3] == false)
  }
}
