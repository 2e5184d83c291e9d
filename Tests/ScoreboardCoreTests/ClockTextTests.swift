import ScoreboardCore
import Testing

/// Clock times as the configuration, the control socket and the state show them, and
/// how a clock rounds what it shows.
@Suite struct ClockTextTests {
  @Test(arguments: [
    ("12:00", Duration.seconds(720)), ("0:52.4", .milliseconds(52_400)), ("24", .seconds(24)),
    ("4.9", .milliseconds(4_900)), ("0", .zero), ("0:00", .zero), ("1:05", .seconds(65)),
    ("01:05", .seconds(65)), ("05", .seconds(5)), ("90", .seconds(90)),
    ("99:59", .seconds(5_999)), ("99:59.9", .milliseconds(5_999_900)), ("10:00.0", .seconds(600)),
  ])
  func parses(text: String, time: Duration) {
    #expect(ClockText.parse(text) == time)
  }

  @Test(arguments: [
    "12:75", "1:5", "100:00", "5.55", "", "-1", "+1", "1:", ":30", "1.", ".5", "1:2:3",
    "12:00.", "1.2.3", " 5", "5 ", "1:0a", "٢٤", "1:60", "12345", "0x10", "1e3",
  ])
  func refuses(text: String) {
    #expect(ClockText.parse(text) == nil)
  }

  @Test func everyTenthOfTheLongestPeriodRoundTrips() {
    var failures: [String] = []
    for tenths in stride(from: Int64(0), through: 59_999, by: 1) {
      let time = Duration.milliseconds(tenths * 100)
      let withMinutes = ClockText.exact(time, minutes: true)
      let seconds = ClockText.exact(time, minutes: false)
      if ClockText.parse(withMinutes) != time || ClockText.parse(seconds) != time {
        failures.append("\(withMinutes) / \(seconds)")
      }
    }
    #expect(failures.isEmpty)
  }

  @Test(arguments: [
    (Duration.seconds(720), true, "12:00.0", "720.0"),
    (.milliseconds(52_400), true, "52.4", "52.4"),
    (.milliseconds(599_900), true, "9:59.9", "599.9"), (.zero, true, "0.0", "0.0"),
    (.seconds(60), false, "1:00", "60"), (.seconds(9), false, "0:09", "9"),
    (.seconds(5_999), false, "99:59", "5999"),
  ])
  func formats(time: Duration, tenths: Bool, minutes: String, seconds: String) {
    #expect(ClockText.text(time, tenths: tenths, minutes: true) == minutes)
    #expect(ClockText.text(time, tenths: tenths, minutes: false) == seconds)
  }

  @Test(arguments: [
    ("+1", Duration.seconds(1)), ("-1", .seconds(-1)), ("+0.1", .milliseconds(100)),
    ("-0.1", .milliseconds(-100)), ("+10.5", .milliseconds(10_500)), ("-24", .seconds(-24)),
    ("+0", .zero), ("+5999", .seconds(5_999)),
  ])
  func parsesSignedAmounts(text: String, amount: Duration) {
    #expect(ClockText.parseSigned(text) == amount)
    #expect(ClockText.parseSigned(ClockText.signed(amount)) == amount, "it reads back")
  }

  @Test(arguments: [
    "1", "0.1", "+", "-", "+-1", "++1", "+1:00", "-0:30", "+1.25", "+x", "", "+6000", "+ 1",
  ])
  func refusesSignedAmounts(text: String) {
    #expect(ClockText.parseSigned(text) == nil)
  }

  @Test(arguments: [
    (Duration.seconds(1), "+1"), (.milliseconds(-100), "-0.1"), (.milliseconds(10_500), "+10.5"),
    (.zero, "+0"), (.seconds(-90), "-90"),
  ])
  func writesSignedAmounts(amount: Duration, text: String) {
    #expect(ClockText.signed(amount) == text)
  }

  static let game = ClockFormat(role: .game, length: .seconds(720))
  static let shot = ClockFormat(role: .shot, length: .seconds(24))
  static let up = ClockFormat(role: .game, direction: .up, length: .seconds(1200))

  @Test(arguments: [
    (game, Duration.seconds(720), "12:00", "12:00.0"),
    (game, .nanoseconds(719_000_000_001), "12:00", "11:59.1"),
    (game, .seconds(719), "11:59", "11:59.0"), (game, .milliseconds(60_000), "1:00", "1:00.0"),
    (game, .nanoseconds(59_900_000_001), "1:00", "1:00.0"),
    (game, .milliseconds(59_900), "59.9", "59.9"),
    (game, .nanoseconds(1), "0.1", "0.1"), (game, .zero, "0.0", "0.0"),
    (shot, .seconds(24), "24", "24.0"), (shot, .nanoseconds(23_000_000_001), "24", "23.1"),
    (shot, .seconds(5), "5", "5.0"), (shot, .milliseconds(4_900), "4.9", "4.9"),
    (shot, .zero, "0.0", "0.0"),
    (up, .zero, "0.0", "0.0"), (up, .nanoseconds(99_999_999), "0.0", "0.0"),
    (up, .milliseconds(59_999), "59.9", "59.9"), (up, .seconds(60), "1:00", "1:00.0"),
    (up, .nanoseconds(60_999_999_999), "1:00", "1:00.9"),
  ])
  func aClockRoundsWhatItShowsTheWayItCounts(
    format: ClockFormat, time: Duration, shown: String, exact: String
  ) {
    #expect(format.text(time) == shown)
    #expect(format.exactText(time) == exact)
  }

  @Test func startAndEndTimes() {
    #expect(Self.game.startTime == .seconds(720))
    #expect(Self.game.endTime == .zero)
    #expect(
      ClockFormat(role: .shot, length: .seconds(24), resets: [.seconds(24), .seconds(14)]).startTime
        == .seconds(24))
    #expect(
      ClockFormat(role: .shot, length: .seconds(30), resets: [.seconds(14)]).startTime
        == .seconds(14))
    #expect(Self.up.startTime == .zero)
    #expect(Self.up.endTime == .seconds(1200))
    #expect(Self.game.tenthsBelow == .seconds(60))
    #expect(Self.shot.tenthsBelow == .seconds(5))
  }
}
