import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import TestSupport
import Testing

/// Frames of a TM1637 at its default 100 µs bit delay, played in pieces from the loop on
/// a clock the test moves: what reaches the wire, how little each call does, frames given
/// meanwhile, late wake-ups, shutdown, and a chip or lines that fail in mid-frame.
@Suite struct GPIOFramePlaybackTests {
  /// A TM1637 display on a chip that answers, timed by a stepped clock, with what each
  /// call of the loop played.
  struct Bench {
    /// What one `show`, `service` or `shutdown` call did.
    struct Call {
      /// When it was made.
      var at: Instant
      /// The level changes it made.
      var changes: [(line: Int, high: Bool)]
      /// How many line operations it recorded (each one a system call on real lines).
      var records: Int
      /// How long it slept.
      var slept: Duration
    }

    let clock: SteppedTimeSource
    let display: GPIOSegmentDisplay
    let lines: FakeGPIOLines
    let capture: LineCapture
    var chip = TM1637Decoder()
    var calls: [Call] = []

    init(
      _ encoder: TM1637Protocol = TM1637Protocol(cellCount: 4),
      logger: Logger = GPIOFixtures.quietLogger,
      longestInlineWait: Duration? = GPIOLinePlayer.defaultLongestInlineWait
    ) throws {
      let clock = SteppedTimeSource()
      self.clock = clock
      let backend: FakeGPIOBackend
      (display, backend) = GPIOFixtures.display(
        encoder, logger: logger, at: clock.time, clock: clock,
        longestInlineWait: longestInlineWait)
      lines = try #require(backend.requests.first)
      lines.inputModel = GPIOFixtures.answeringChip
      capture = LineCapture(lines)
    }

    /// Runs `body` as one call of the loop at the clock's time, and notes what it did.
    mutating func call(_ body: (Instant) -> Void) {
      let start = clock.time
      let records = lines.records.count
      body(start)
      let changes = capture.newChanges()
      chip.receive(changes)
      calls.append(
        Call(
          at: start, changes: changes, records: lines.records.count - records,
          slept: clock.time - start))
    }

    /// Gives the display `frame`.
    mutating func show(_ frame: Frame) {
      let display = display
      call { display.show(frame, at: $0) }
    }

    /// Services the display `late` after its deadline (or now, if that has passed).
    mutating func service(late: Duration = .zero) {
      if let deadline = display.waitingFor.deadline {
        clock.time = max(clock.time, deadline + late)
      }
      let display = display
      call { display.service([], at: $0) }
    }

    /// Services the display at each of its deadlines until no frame is being played.
    mutating func playToEnd() {
      while display.isPlaying {
        service()
      }
    }
  }

  static func grids(_ text: String) -> [UInt8] {
    TM1637DisplayTests.grids(text)
  }

  /// The steps of the full initialisation of a 4-cell TM1637 showing `text`.
  static func initialization(_ text: String) -> [LineStep] {
    var encoder = TM1637Protocol(cellCount: 4)
    return encoder.initialize(showing: GPIOFixtures.frame(text))
  }

  @Test func aFrameIsPlayedInPiecesAtTheEndsOfItsDelays() throws {
    var bench = try Bench()
    let start = bench.clock.time
    let delays = GPIOFixtures.delays(of: Self.initialization("12 0"))
    bench.show(GPIOFixtures.frame("12 0", brightness: 15))
    #expect(bench.display.isPlaying)
    #expect(bench.display.waitingFor.deadline == start + .microseconds(100))
    bench.playToEnd()

    #expect(bench.chip.transactions == [[0x40], [0xC0] + Self.grids("12 0"), [0x8F]])
    #expect(bench.chip.violations.isEmpty)
    #expect(bench.calls.count == delays.count + 1, "the show, then one call per delay")
    #expect(
      bench.calls.map(\.at) == (0...delays.count).map { start + .microseconds(100) * $0 },
      "every call at the end of a delay, on the frame's schedule")
    #expect(bench.calls.allSatisfy { $0.records <= 4 }, "a few line operations per call")
    #expect(
      bench.calls.allSatisfy { call in call.changes.filter { $0.line == 0 }.count <= 1 },
      "at most one CLK edge per call: the edges are a bit delay apart")
    #expect(bench.clock.sleeps.isEmpty, "wake-ups on time sleep no more")
    #expect(bench.clock.time - start == .nanoseconds(delays.total))
    #expect(bench.display.isOnline)
    #expect(bench.display.waitingFor == .nothing)
    #expect(bench.display.refreshDueAt == start + .seconds(60), "re-initialisation")
    #expect(bench.lines.values == [true, true], "the bus is left idle")
    #expect(bench.lines.settings[1].direction == .output)
  }

  @Test func aLateWakeUpShortensTheFollowingDelaysOnTheFramesSchedule() throws {
    var bench = try Bench()
    let start = bench.clock.time
    let delays = GPIOFixtures.delays(of: Self.initialization("12 0"))
    bench.show(GPIOFixtures.frame("12 0"))

    bench.service(late: .microseconds(30))
    #expect(bench.clock.sleeps.isEmpty, "70 µs to go: back to the loop")
    #expect(bench.display.waitingFor.deadline == start + .microseconds(200))

    bench.service(late: .microseconds(60))
    #expect(bench.clock.sleeps.isEmpty, "40 µs to go: back to the loop")
    #expect(bench.display.waitingFor.deadline == start + .microseconds(300))

    bench.service(late: .microseconds(85))
    #expect(
      bench.clock.sleeps.map { [$0.from, $0.until] }
        == [[start + .microseconds(385), start + .microseconds(400)]],
      "15 µs to go: slept in the call")
    #expect(bench.display.waitingFor.deadline == start + .microseconds(500))

    bench.service(late: .microseconds(240))
    #expect(bench.clock.sleeps.count == 1, "the delays ending at 600 and 700 µs cost nothing")
    #expect(bench.display.waitingFor.deadline == start + .microseconds(800))
    #expect(bench.calls.last.map { call in call.changes.filter { $0.line == 0 }.count } == 3)

    bench.playToEnd()
    #expect(
      bench.clock.time - start == .nanoseconds(delays.total),
      "back on schedule: the frame takes its delays and no more")
    #expect(bench.chip.transactions == [[0x40], [0xC0] + Self.grids("12 0"), [0x8C]])
    #expect(bench.chip.violations.isEmpty)
  }

  /// A sleep ends late by up to the timer slack, which leaves the next wait short: were
  /// it slept too, and the next, one call could play the whole frame.
  @Test func aPieceSleepsNoFurtherThanTheLongestInlineWaitFromItsStart() throws {
    var bench = try Bench()
    bench.clock.overshoot = .microseconds(60)
    let start = bench.clock.time
    bench.show(GPIOFixtures.frame("12 0"))
    bench.service(late: .microseconds(85))
    #expect(
      bench.clock.sleeps.map { [$0.from, $0.until] }
        == [[start + .microseconds(185), start + .microseconds(200)]])
    #expect(bench.clock.time == start + .microseconds(260))
    #expect(
      bench.display.waitingFor.deadline == start + .microseconds(300),
      "40 µs to go after the sleep, 115 µs after the call began: back to the loop")
    bench.playToEnd()
    #expect(bench.calls.allSatisfy { $0.slept <= .microseconds(20 + 60) })
    #expect(bench.chip.transactions == [[0x40], [0xC0] + Self.grids("12 0"), [0x8C]])
    #expect(bench.chip.violations.isEmpty)
  }

  @Test func framesGivenWhileOneIsPlayedWaitForItsEndAndOnlyTheLatestIsPlayed() throws {
    var bench = try Bench()
    bench.show(GPIOFixtures.frame("1234"))
    for _ in 0..<30 {
      bench.service()
    }
    #expect(bench.display.isPlaying)
    let records = bench.lines.records.count
    bench.show(GPIOFixtures.frame("9999"))
    bench.show(GPIOFixtures.frame("1278"))
    #expect(bench.lines.records.count == records, "nothing is sent in the middle of a frame")
    #expect(bench.chip.transactions == [[0x40]], "the first frame goes on")

    bench.playToEnd()
    #expect(
      bench.chip.transactions == [
        [0x40], [0xC0] + Self.grids("1234"), [0x8C],
        [0x40], [0xC2] + Self.grids("1278")[2...],
      ],
      "the whole first frame, then the changes to the latest")
    #expect(Array(bench.chip.grids.prefix(4)) == Self.grids("1278"))
    #expect(bench.chip.violations.isEmpty)
    #expect(!bench.display.isPlaying)
  }

  @Test func shutdownFinishesTheFrameBeingPlayedThenShowsTheFinalFrame() throws {
    var bench = try Bench()
    let start = bench.clock.time
    let delays = GPIOFixtures.delays(of: Self.initialization("12 7"))
    bench.show(GPIOFixtures.frame("12 7"))
    for _ in 0..<40 {
      bench.service()
    }
    bench.show(GPIOFixtures.frame("99 9"))
    let display = bench.display
    bench.call { _ in display.shutdown(showing: GPIOFixtures.frame("", isBlank: true)) }

    #expect(
      bench.chip.transactions.prefix(3) == [[0x40], [0xC0] + Self.grids("12 7"), [0x8C]],
      "the frame being played, to its end")
    #expect(!bench.chip.isDisplayOn, "then the final frame")
    #expect(bench.chip.grids == [0, 0, 0, 0, 0, 0])
    #expect(
      !bench.chip.transactions.joined().contains(Self.grids("9")[0]),
      "the final frame replaces one still waiting")
    #expect(bench.chip.violations.isEmpty)
    #expect(bench.lines.isReleased)
    #expect(!bench.display.isPlaying)
    #expect(
      bench.clock.time - start > .nanoseconds(delays.total),
      "shutdown slept through the rest of the first frame's delays and the final frame's")
  }

  @Test func aMissingAcknowledgementInMidFrameTakesTheDisplayOffline() throws {
    let log = try LogCapture()
    var bench = try Bench(logger: log.logger)
    bench.show(GPIOFixtures.frame("12 0"))
    bench.playToEnd()
    bench.show(GPIOFixtures.frame("12 1"))
    for _ in 0..<5 {
      bench.service()
    }
    #expect(bench.display.isOnline)
    bench.lines.inputModel = GPIOFixtures.missingChip
    bench.playToEnd()
    let failedAt = bench.clock.time
    #expect(!bench.display.isOnline)
    #expect(!bench.display.isPlaying)
    #expect(bench.display.waitingFor.deadline == failedAt + .milliseconds(250))
    #expect(bench.lines.settings[1].direction == .input, "DIO is left released")
    #expect(bench.lines.values[0], "CLK is left high")
    #expect(
      log.lines.filter { $0.hasPrefix("<4>") } == [
        "<4>display main: no acknowledgement from the device; offline, retrying"
      ])

    // The chip answers again: a full initialisation with the latest frame, played in
    // pieces; the display counts as online once the chip took all of it.
    bench.lines.inputModel = GPIOFixtures.answeringChip
    bench.show(GPIOFixtures.frame("12 2"))
    #expect(!bench.display.isPlaying, "nothing is sent to an offline device")
    bench.chip = TM1637Decoder()
    bench.service()
    #expect(bench.clock.time == failedAt + .milliseconds(250))
    #expect(bench.display.isPlaying)
    #expect(!bench.display.isOnline)
    bench.playToEnd()
    #expect(bench.display.isOnline)
    #expect(bench.chip.transactions == [[0x40], [0xC0] + Self.grids("12 2"), [0x8C]])
    #expect(bench.chip.violations.isEmpty)
    #expect(log.lines.last == "<5>display main: the device answers again; re-initialised")
  }

  @Test func aLineErrorInMidFrameReleasesTheLinesAndTheyAreRequestedAgain() throws {
    let clock = SteppedTimeSource()
    let backend = GPIOSegmentDisplayTests.FlakyBackend()
    let display = GPIOSegmentDisplay(
      name: "main", addresses: [.name("GPIO17"), .name("GPIO18")],
      encoder: TM1637Protocol(cellCount: 4), backend: backend,
      logger: GPIOFixtures.quietLogger, at: clock.time, clock: clock)
    func serviceAtDeadline() throws {
      clock.time = try #require(display.waitingFor.deadline)
      display.service([], at: clock.time)
    }
    let first = try #require(backend.requests.first)
    first.fake.inputModel = GPIOFixtures.answeringChip
    display.show(GPIOFixtures.frame("12 0"), at: clock.time)
    for _ in 0..<10 {
      try serviceAtDeadline()
    }
    first.failing = true
    try serviceAtDeadline()
    let failedAt = clock.time
    #expect(!display.isOnline)
    #expect(!display.isPlaying)
    #expect(first.fake.isReleased)
    #expect(display.waitingFor.deadline == failedAt + .milliseconds(250))

    try serviceAtDeadline()
    #expect(backend.requests.count == 2)
    let second = try #require(backend.requests.last)
    second.fake.inputModel = GPIOFixtures.answeringChip
    #expect(display.isPlaying)
    while display.isPlaying {
      try serviceAtDeadline()
    }
    #expect(display.isOnline)
    var chip = TM1637Decoder()
    chip.receive(second.fake.transitions.map { (line: $0.line, high: $0.value) })
    #expect(chip.transactions == [[0x40], [0xC0] + Self.grids("12 0"), [0x8C]])
    #expect(chip.violations.isEmpty)
  }

  /// A display set up again every second, that has played its first frame (`12 0`).
  static func reinitialisedEverySecond() throws -> (bench: Bench, start: Instant) {
    var bench = try Bench(TM1637Protocol(cellCount: 4, reinitializeInterval: .seconds(1)))
    let start = bench.clock.time
    bench.show(GPIOFixtures.frame("12 0"))
    bench.playToEnd()
    return (bench, start)
  }

  /// The update from `12 0` to `12 1`, then the whole initialisation showing `12 1`.
  static let changeThenInitialisation: [[UInt8]] = [
    [0x44], [0xC3, grids("1")[0]],
    [0x40], [0xC0] + grids("12 1"), [0x8C],
  ]

  @Test func thePeriodicReinitialisationWaitsForTheFrameBeingPlayed() throws {
    var (bench, start) = try Self.reinitialisedEverySecond()
    #expect(bench.display.refreshDueAt == start + .seconds(1))
    #expect(bench.display.waitingFor == .nothing)

    bench.clock.time = start + .seconds(1) - .milliseconds(1)
    bench.show(GPIOFixtures.frame("12 1"))
    #expect(bench.display.refreshDueAt == nil, "not while the wire is busy")
    let before = bench.chip.transactions.count
    bench.playToEnd()
    #expect(bench.clock.time > start + .seconds(1))
    #expect(bench.display.refreshDueAt == start + .seconds(1), "due now")
    let display = bench.display
    bench.call { display.refreshIfDue(at: $0) }
    #expect(bench.display.isPlaying)
    let reinitializedAt = bench.calls.last?.at ?? start
    bench.playToEnd()
    #expect(Array(bench.chip.transactions[before...]) == Self.changeThenInitialisation)
    #expect(bench.chip.violations.isEmpty)
    #expect(bench.display.refreshDueAt == reinitializedAt + .seconds(1))
  }

  /// A frame shown once the re-initialisation is due carries it: its change first, as
  /// without it, then the whole initialisation.
  @Test func aFrameShownOnceTheReinitialisationIsDuePlaysItsChangeFirst() throws {
    var (bench, start) = try Self.reinitialisedEverySecond()
    let before = bench.chip.transactions.count
    bench.clock.time = start + .seconds(2)
    bench.show(GPIOFixtures.frame("12 1"))
    bench.playToEnd()
    #expect(Array(bench.chip.transactions[before...]) == Self.changeThenInitialisation)
    #expect(bench.chip.violations.isEmpty)
    #expect(bench.display.refreshDueAt == start + .seconds(3))
  }

  @Test func aRefreshAskedForInMidFrameIsPlayedWhenTheFrameEnds() throws {
    var (bench, start) = try Self.reinitialisedEverySecond()
    bench.clock.time = start + .seconds(1) - .milliseconds(1)
    bench.show(GPIOFixtures.frame("12 1"))
    let before = bench.chip.transactions.count
    while bench.clock.time < start + .seconds(1) {
      bench.service()
    }
    #expect(bench.display.isPlaying)
    // The watchdog's ping, in the middle of the frame.
    let display = bench.display
    bench.call { display.refreshIfDue(at: $0) }
    bench.playToEnd()
    #expect(
      Array(bench.chip.transactions[before...]) == Self.changeThenInitialisation,
      "the frame whole, then the initialisation")
    #expect(bench.chip.violations.isEmpty)
    #expect(bench.display.refreshDueAt.map { $0 > start + .seconds(2) } == true)
  }

  @Test func delaysWithin20MicrosecondsOfTheCallAreSleptInIt() throws {
    let clock = SteppedTimeSource()
    let start = clock.time
    var encoder = ShiftRegisterProtocol(cellCount: 4)
    let delays = GPIOFixtures.delays(of: encoder.initialize(showing: GPIOFixtures.frame("1234")))
    #expect(delays.total == 66_000, "1 µs delays")
    let (display, backend) = GPIOFixtures.display(
      ShiftRegisterProtocol(cellCount: 4), at: start, clock: clock)
    display.show(GPIOFixtures.frame("1234"), at: start)
    #expect(clock.time == start + .microseconds(20), "the delays of the first 20 µs slept")
    #expect(display.waitingFor.deadline == start + .microseconds(21))
    var calls = 1
    while let deadline = display.waitingFor.deadline, display.isPlaying {
      clock.time = deadline
      display.service([], at: deadline)
      calls += 1
    }
    #expect(calls == 4, "20 µs of delays per call")
    #expect(clock.time == start + .microseconds(66))
    #expect(clock.sleeps.count == delays.count - 3)
    let lines = try #require(backend.requests.first)
    var chain = ShiftRegisterChainDecoder(registerCount: 4, outputEnable: nil)
    chain.receive(lines.transitions.map { (line: $0.line, high: $0.value) })
    #expect(chain.outputs == Self.grids("1234"))
    #expect(chain.violations.isEmpty)
  }

  @Test func withoutALongestInlineWaitShowPlaysTheWholeFrame() throws {
    var bench = try Bench(longestInlineWait: nil)
    let start = bench.clock.time
    let delays = GPIOFixtures.delays(of: Self.initialization("12 0"))
    bench.show(GPIOFixtures.frame("12 0"))
    #expect(!bench.display.isPlaying)
    #expect(bench.calls.count == 1)
    #expect(bench.clock.time - start == .nanoseconds(delays.total))
    #expect(bench.chip.transactions == [[0x40], [0xC0] + Self.grids("12 0"), [0x8C]])
  }
}
