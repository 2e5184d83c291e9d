import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings
import TestSupport
import Testing

/// A horn on a fake GPIO line: requested silent, driven by the model and by key clicks
/// at their deadlines, released silent, and requested again after a failure.
@Suite struct HornOutputTests {
  static func horn(
    backend: any GPIOBackend, activeLow: Bool = false, clicks: Bool = true,
    logger: Logger = GPIOFixtures.quietLogger, at now: Instant = .zero
  ) -> HornOutput {
    HornOutput(
      name: "buzzer", wiring: .gpio(line: .name("GPIO6"), activeLow: activeLow, backend: backend),
      clicks: clicks, clickDuration: .milliseconds(5), logger: logger, at: now)
  }

  /// The levels set on the horn's line, in order.
  static func levels(_ lines: FakeGPIOLines) -> [Bool] {
    lines.records.compactMap { if case .set(0, let value) = $0 { value } else { nil } }
  }

  @Test(arguments: [false, true])
  func theLineIsRequestedAsAnOutputAtItsOffLevelPulledToOff(activeLow: Bool) throws {
    let backend = ModelledGPIOBackend()
    let horn = Self.horn(backend: backend, activeLow: activeLow)
    #expect(horn.isOnline)
    #expect(!horn.isSounding)
    #expect(horn.deadline == nil)
    let lines = try #require(backend.requests.first)
    #expect(backend.requests.count == 1)
    #expect(lines.addresses == [.name("GPIO6")])
    #expect(lines.consumer == HornOutput.consumer)
    let settings = try #require(lines.settings.first)
    #expect(settings.direction == .output)
    #expect(settings.initialValue == false, "off (the logical value; active-low inverts it)")
    #expect(settings.activeLow == activeLow)
    #expect(settings.bias == (activeLow ? .pullUp : .pullDown))
    #expect(lines.records.isEmpty, "nothing driven until the model says so")
  }

  @Test func theModelTurnsItOnAndOff() throws {
    let backend = ModelledGPIOBackend()
    let horn = Self.horn(backend: backend)
    let lines = try #require(backend.requests.first)
    horn.set(sounding: true, at: .milliseconds(10))
    #expect(horn.isSounding)
    #expect(lines.values == [true])
    horn.set(sounding: true, at: .milliseconds(20))
    #expect(Self.levels(lines) == [true], "the same level is not written again")
    horn.set(sounding: false, at: .milliseconds(1_510))
    #expect(!horn.isSounding)
    #expect(Self.levels(lines) == [true, false])
    #expect(horn.deadline == nil)
  }

  @Test func aClickPulsesTheLineOnAndOffAtItsDeadlines() throws {
    let backend = ModelledGPIOBackend()
    let horn = Self.horn(backend: backend)
    let lines = try #require(backend.requests.first)
    // The key is carried out at 101 ms: the click sounds 5 ms from then.
    horn.click(refused: false, at: .milliseconds(101))
    #expect(horn.isSounding)
    #expect(horn.deadline == .milliseconds(106), "5 ms from when the key is handled")
    horn.service(at: .milliseconds(105))
    #expect(horn.isSounding, "not yet")
    horn.service(at: .milliseconds(106))
    #expect(!horn.isSounding)
    #expect(horn.deadline == nil)
    #expect(Self.levels(lines) == [true, false])
  }

  @Test func aRefusedKeyGivesTwoBuzzes() throws {
    let backend = ModelledGPIOBackend()
    let horn = Self.horn(backend: backend)
    let lines = try #require(backend.requests.first)
    horn.click(refused: true, at: .milliseconds(200))
    // Each buzz is 8 clicks long (40 ms), 60 ms apart.
    var edges: [(Instant, Bool)] = [(.milliseconds(200), horn.isSounding)]
    while let deadline = horn.deadline {
      horn.service(at: deadline)
      edges.append((deadline, horn.isSounding))
    }
    #expect(edges.map(\.0) == [200, 240, 300, 340].map { Instant.milliseconds($0) })
    #expect(edges.map(\.1) == [true, false, true, false])
    #expect(Self.levels(lines) == [true, false, true, false])
  }

  @Test func clicksQueueBehindOneAnother() throws {
    let backend = ModelledGPIOBackend()
    let horn = Self.horn(backend: backend)
    horn.click(refused: false, at: .milliseconds(0))
    horn.click(refused: false, at: .milliseconds(2))
    #expect(horn.deadline == .milliseconds(5))
    horn.service(at: .milliseconds(5))
    // The second click starts where the first ended: the line stays on until 10 ms.
    #expect(horn.isSounding)
    #expect(horn.deadline == .milliseconds(10))
    horn.service(at: .milliseconds(10))
    #expect(!horn.isSounding)
  }

  @Test func aHornThatDoesNotClickIgnoresKeys() throws {
    let backend = ModelledGPIOBackend()
    let horn = Self.horn(backend: backend, clicks: false)
    horn.click(refused: true, at: .zero)
    #expect(!horn.isSounding)
    #expect(horn.deadline == nil)
    let lines = try #require(backend.requests.first)
    #expect(lines.records.isEmpty)
  }

  @Test func aClickDuringTheModelsSoundDoesNotCutItShort() throws {
    let backend = ModelledGPIOBackend()
    let horn = Self.horn(backend: backend)
    let lines = try #require(backend.requests.first)
    horn.set(sounding: true, at: .zero)
    horn.click(refused: false, at: .milliseconds(10))
    horn.service(at: .milliseconds(15))
    #expect(horn.isSounding)
    #expect(Self.levels(lines) == [true])
  }

  @Test func shutdownTurnsItOffAndReleasesTheLine() throws {
    let backend = ModelledGPIOBackend()
    let horn = Self.horn(backend: backend)
    let lines = try #require(backend.requests.first)
    horn.set(sounding: true, at: .zero)
    horn.shutdown()
    #expect(Self.levels(lines) == [true, false])
    #expect(lines.isReleased)
    #expect(!horn.isSounding)
    #expect(!horn.isOnline)
  }

  @Test func aFailedRequestIsTriedAgainAtItsDeadline() throws {
    let backend = ModelledGPIOBackend()
    backend.fake.failure = GPIOError(operation: "request", line: "GPIO6", errno: .busy)
    let log = try LogCapture()
    let horn = Self.horn(backend: backend, logger: log.logger, at: .milliseconds(1_000))
    #expect(!horn.isOnline)
    #expect(backend.requests.isEmpty)
    #expect(log.lines.contains { $0.contains("horn buzzer") && $0.contains("will keep trying") })
    let retry = try #require(horn.deadline)
    #expect(retry > .milliseconds(1_000))
    #expect(retry <= .milliseconds(6_000), "the displays' back-off, at most 5 s")

    // The model says it sounds while the line is away: it sounds once the line is back.
    horn.set(sounding: true, at: .milliseconds(1_100))
    #expect(!horn.isSounding)
    horn.service(at: retry - .milliseconds(1))
    #expect(backend.requests.isEmpty, "not before its deadline")
    horn.service(at: retry)
    let lines = try #require(backend.requests.first)
    #expect(horn.isOnline)
    #expect(horn.deadline == nil)
    #expect(horn.isSounding)
    #expect(Self.levels(lines) == [true])
    #expect(lines.settings.first?.bias == .pullDown)
    #expect(log.lines.contains { $0.contains("horn buzzer: line GPIO6 requested") })
  }
}
