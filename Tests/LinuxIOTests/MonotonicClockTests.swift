import LinuxIO
import Testing

@Suite struct MonotonicClockTests {
  @Test func neverGoesBackwards() {
    let first = MonotonicClock.now()
    let second = MonotonicClock.now()
    #expect(first > 0)
    #expect(second >= first)
  }
}
