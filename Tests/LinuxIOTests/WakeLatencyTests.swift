import Testing

@testable import LinuxIO

@Suite struct WakeLatencyTests {
  /// Lateness spread evenly over 0-200 µs: one in ten is later than 180 µs, half later
  /// than 100 µs; the estimate wanders a step or two around where it settles.
  @Test func settlesAtTheNinetiethPercentile() {
    var latency = WakeLatency()
    for index in 0..<5_000 {
      latency.observe(lateness: Int64(index * 7_919 % 200) * 1_000)
    }
    #expect((150_000...200_000).contains(latency.estimate))
  }

  @Test func risesByStepsAndNeverPastItsLimit() {
    var latency = WakeLatency()
    latency.observe(lateness: 10_000_000)
    #expect(latency.estimate == 50_000 + WakeLatency.rise)
    for _ in 0..<1_000 {
      latency.observe(lateness: 10_000_000)
    }
    #expect(latency.estimate == WakeLatency.limit)
  }

  @Test func fallsToZeroForWakeupsOnTime() {
    var latency = WakeLatency()
    for _ in 0..<100 {
      latency.observe(lateness: 0)
    }
    #expect(latency.estimate == 0)
  }
}
