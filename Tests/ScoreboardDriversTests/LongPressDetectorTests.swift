import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct LongPressDetectorTests {
  let button = Key("BTN_0")!
  let longButton = Key("BTN_0", long: true)!
  let plainButton = Key("BTN_1")!

  func detector(_ keys: Set<Key>) -> LongPressDetector {
    LongPressDetector(keypad: "buttons", longPressKeys: keys, holdTime: .seconds(1))
  }

  func event(_ key: Key, _ kind: KeyEvent.Kind, at ms: Int64) -> KeyEvent {
    KeyEvent(keypad: "buttons", key: key, kind: kind, time: .milliseconds(ms))
  }

  @Test func shortPressBecomesTheShortKeyOnRelease() {
    var detector = detector([button])
    #expect(detector.press(button, at: .milliseconds(100)) == [])
    #expect(detector.nextDeadline == .milliseconds(1_100))
    #expect(
      detector.release(button, at: .milliseconds(400))
        == [event(button, .press, at: 400), event(button, .release, at: 400)])
    #expect(detector.nextDeadline == nil)
  }

  @Test func holdPastTheTimeGivesTheLongKeyAndASilentRelease() {
    var detector = detector([button])
    #expect(detector.press(button, at: .milliseconds(100)) == [])
    #expect(detector.advance(to: .milliseconds(1_099)) == [])
    #expect(detector.advance(to: .milliseconds(1_100)) == [event(longButton, .press, at: 1_100)])
    #expect(detector.nextDeadline == nil)
    #expect(detector.advance(to: .milliseconds(3_000)) == [])
    #expect(detector.release(button, at: .milliseconds(3_000)) == [])
  }

  @Test func releaseReadAfterTheHoldTimeStillGivesTheLongKey() {
    var detector = detector([button])
    #expect(detector.press(button, at: .milliseconds(0)) == [])
    #expect(
      detector.release(button, at: .milliseconds(1_500)) == [event(longButton, .press, at: 1_000)])
  }

  @Test func keyWithoutALongBindingReportsAtOnce() {
    var detector = detector([button])
    #expect(
      detector.press(plainButton, at: .milliseconds(100)) == [event(plainButton, .press, at: 100)])
    #expect(detector.nextDeadline == nil)
    #expect(
      detector.release(plainButton, at: .milliseconds(2_500))
        == [event(plainButton, .release, at: 2_500)])
  }

  @Test func keysMayBeGivenInTheirLongForm() {
    var detector = detector([longButton])
    #expect(detector.longPressKeys == [button])
    #expect(detector.press(button, at: .zero) == [])
    #expect(detector.advance(to: .milliseconds(1_000)) == [event(longButton, .press, at: 1_000)])
  }

  @Test func heldKeysBecomeLongInTheOrderTheyWentDown() {
    let other = Key("BTN_2")!
    var detector = detector([button, other])
    #expect(detector.press(other, at: .milliseconds(100)) == [])
    #expect(detector.press(button, at: .milliseconds(200)) == [])
    #expect(
      detector.press(plainButton, at: .milliseconds(300)) == [event(plainButton, .press, at: 300)])
    #expect(
      detector.advance(to: .milliseconds(2_000)) == [
        event(Key("BTN_2", long: true)!, .press, at: 1_100), event(longButton, .press, at: 1_200),
      ])
  }
}
