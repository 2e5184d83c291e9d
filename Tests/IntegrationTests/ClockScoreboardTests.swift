@preconcurrency import Glibc
import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import TestSupport
import Testing

/// The real daemon running a game clock on an S7S module on a pseudo-terminal: the
/// countdown decoded from the wire, the watch stream's clock and horn events, and the
/// clock kept across `kill -9` in the same boot, and stopped after a (simulated) reboot.
@Suite(.serialized) struct ClockScoreboardTests {
  /// The far end of the clock's serial line, which records every state the module
  /// passes through, with the time it arrived.
  final class ClockModule {
    let link: String
    private let terminal: PseudoTerminal
    private(set) var emulator = SerialSevenSegmentEmulator()
    /// Each reading the module showed, in order, with when it showed it.
    private(set) var readings: [(text: String, time: Double)] = []

    init(in folder: TemporaryFolder) throws {
      link = folder.path(of: "serial0")
      terminal = try PseudoTerminal.open()
      symlink(terminal.slavePath, link)
    }

    deinit {
      try? terminal.master.close()
      unlink(link)
    }

    /// What the module shows: its digits, with a `.` after a digit whose decimal point
    /// is lit and a `:` after the second digit when the colon is.
    var reading: String {
      let cells = emulator.digits.map { glyph -> Segments in
        if case .segments(let bits) = glyph { Segments(rawValue: bits) } else { [.a, .d, .g] }
      }
      let characters = Array(SegmentFont.text(for: cells))
      var text = ""
      for (index, character) in characters.enumerated() {
        text.append(character)
        if index < 4, emulator.decimalPoints[index] { text += "." }
        if index == 1, emulator.isColonLit { text += ":" }
      }
      return text
    }

    /// What the module showed, for a failed expectation: its readings in order, each
    /// with its time in milliseconds since the first, and any bytes the datasheet does not
    /// allow.
    var account: String {
      let start = readings.first?.time ?? 0
      var text = "showing \"\(reading)\"; readings:"
      for entry in readings {
        text += " \"\(entry.text)\"@\(Int((entry.time - start) * 1000))ms"
      }
      if !emulator.violations.isEmpty {
        text += "; violations: \(emulator.violations)"
      }
      return text
    }

    /// Reads the line until the module shows `text`, for at most `timeout` seconds.
    @discardableResult
    func waitUntilShowing(_ text: String, timeout: Double = 10) -> Bool {
      let deadline = secondsNow() + timeout
      while reading != text {
        let remaining = deadline - secondsNow()
        guard remaining > 0, read(timeout: remaining) else { return false }
      }
      return true
    }

    /// Takes what comes on the line within `timeout` seconds, once; false when nothing
    /// came.
    @discardableResult
    func read(timeout: Double) -> Bool {
      var entry = pollfd(fd: terminal.master.rawValue, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, CInt(timeout * 1000) + 1) > 0 else { return false }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = (try? buffer.withUnsafeMutableBytes { try terminal.master.read(into: $0) }) ?? 0
      guard count > 0 else { return false }
      // A frame is one write, which one read takes whole.
      emulator.receive(Array(buffer[..<count]))
      let text = reading
      if readings.last?.text != text {
        readings.append((text, secondsNow()))
      }
      return true
    }
  }

  static func configuration(folder: TemporaryFolder, port: String) -> String {
    """
    \(ScoreboardSection.text(in: folder))

    [display clock]
    driver = s7s
    port = \(port)
    baud = 9600
    on-stop = keep

    [field game]
    type = clock
    display = clock
    position = 1
    length = 10:00
    tenths-below = 1:00

    [horn main]
    driver = terminal
    clocks = game
    duration = 500ms
    """
  }

  /// A board of its own: its folder, the module on its serial line and the
  /// configuration's path.
  struct Board {
    let folder: TemporaryFolder
    let module: ClockModule
    let path: String

    init() throws {
      folder = try TemporaryFolder()
      module = try ClockModule(in: folder)
      path = try folder.write(
        "clock.conf", ClockScoreboardTests.configuration(folder: folder, port: module.link))
    }

    var socket: String { folder.path(of: "control") }

    /// Starts the daemon (a reboot between two is shown in the process, with the boot
    /// id injected: `DaemonInVirtualTimeTests`).
    func start() throws -> DaemonProcess {
      try DaemonProcess(arguments: ["--config", path], folder: folder)
    }
  }

  /// The seconds on a clock's time as `get` gives it: `9:57.5` is 597.5.
  static func seconds(_ answer: String?) -> Double? {
    guard let answer, answer.hasPrefix("ok "),
      let time = ClockText.parse(String(answer.dropFirst(3)))
    else { return nil }
    return Double(time.nanoseconds) / 1e9
  }

  /// Tenths on a reading of the module (`  3.0` is 30), nil for one with a colon or no
  /// decimal point.
  static func tenths(_ reading: String) -> Int? {
    let text = reading.filter { $0 != " " }
    guard !text.contains(":"), let point = text.firstIndex(of: "."),
      let whole = Int(text[..<point]), let tenth = Int(text[text.index(after: point)...])
    else { return nil }
    return whole * 10 + tenth
  }

  @Test func aClockCountsDownOnTheModuleToZeroAndTheHornSounds() throws {
    let board = try Board()
    let daemon = try board.start()
    #expect(board.module.waitUntilShowing("10:00"), "\(board.module.account)")
    let watcher = try ControlClient(path: board.socket)
    #expect(watcher.request("watch") == "ok watching")
    let client = try ControlClient(path: board.socket)
    #expect(client.request("set game 0:03") == "ok game 3.0")
    #expect(watcher.readLine() == "event value game 3.0")
    #expect(board.module.waitUntilShowing("  3.0"), "\(board.module.account)")

    let sent = secondsNow()
    #expect(client.request("start") == "ok game 3.0 running")
    // The module and the watch stream read side by side, each line with when it came.
    var events: [(line: String, time: Double)] = []
    while secondsNow() < sent + 6, events.last?.line != "event horn main off" {
      board.module.read(timeout: 0.005)
      if let line = watcher.readLine(timeout: 0.005) {
        events.append((line, secondsNow()))
      }
    }
    #expect(
      events.map(\.line) == [
        "event clock game started 3.0", "event clock game zero 0.0", "event horn main on",
        "event horn main off",
      ])
    if events.count == 4 {
      // A line is noted when this process reads it, which a busy machine can delay, so
      // only what the instants read prove is judged: the daemon started the clock after
      // `sent`, so neither the zero nor the horn's end (500 ms later) can come earlier.
      // Their exact instants are shown in virtual time (DaemonInVirtualTimeTests).
      let zeroAfter = events[1].time - sent
      #expect(zeroAfter >= 3.0, "zero \(zeroAfter) s after the request that started it")
      let offAfter = events[3].time - sent
      #expect(offAfter >= 3.5, "the horn stopped \(offAfter) s after the start request")
    }

    #expect(board.module.waitUntilShowing("  0.0"), "\(board.module.account)")
    // The countdown, read off the wire: every reading from the start is a time in tenths,
    // each lower than the one before, from 3.0 down to 0.0.
    let countdown = board.module.readings.drop { $0.time < sent }.map(\.text)
    let values = countdown.compactMap(Self.tenths)
    #expect(values.count == countdown.count, "only tenths are shown: \(countdown)")
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 > $1 }, "\(countdown)")
    #expect(values.last == 0)
    #expect(values.count >= 20, "nearly every tenth reached the wire: \(countdown)")
    #expect(board.module.emulator.decimalPoints == [false, false, true, false])
    #expect(!board.module.emulator.isColonLit)
    #expect(board.module.emulator.violations.isEmpty)
    let zeroShownAt = try #require(board.module.readings.last?.time) - sent
    #expect(zeroShownAt >= 3.0, "0.0 shown \(zeroShownAt) s after the start request")
    print(
      "clock on S7S: \(values.count) readings from 2.9 to 0.0, 0.0 on the wire "
        + "\(Int(zeroShownAt * 1000)) ms after start")

    #expect(client.request("status")?.contains("clocks=game:stopped horns=main:off") == true)
    #expect(client.request("start") == "error clock game has run out; set or reset it first")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func aRunningClockRunsOnAcrossSIGKILLInTheSameBoot() throws {
    let board = try Board()
    let first = try board.start()
    let client = try ControlClient(path: board.socket)
    let sent = secondsNow()
    #expect(client.request("start") == "ok game 10:00.0 running")
    let answered = secondsNow()
    // The clock runs while the daemon does ...
    #expect(
      board.module.waitUntilShowing(" 9:58"),
      "\(board.module.account); daemon said: \(first.stderrText)")
    first.send(signal: SIGKILL)
    #expect(first.waitForExit() == 128 + SIGKILL)

    // ... and while it is down: the clock started between `sent` and `answered`, and is
    // read between `asked` and `read`, so it has run at least `asked - answered` and at
    // most `read - sent`; counting down, what it says is rounded up to the tenth.
    let second = try board.start()
    let again = try ControlClient(path: board.socket)
    let asked = secondsNow()
    let answer = again.request("get game")
    let read = secondsNow()
    let time = try #require(Self.seconds(answer), "\(answer ?? "no answer")")
    #expect(time >= 600 - (read - sent), "\(answer ?? "")")
    #expect(time <= 600 - (asked - answered) + 0.1, "\(answer ?? "")")
    #expect(again.request("status")?.contains("clocks=game:running") == true)
    #expect(!second.stderrText.contains("earlier boot"))
    second.send(signal: SIGTERM)
    #expect(second.waitForExit() == 0)
  }

  @Test func aClockThatRanOutWhileTheDaemonWasDownComesBackAtZero() throws {
    let board = try Board()
    let first = try board.start()
    let client = try ControlClient(path: board.socket)
    #expect(client.request("set game 0:01") == "ok game 1.0")
    #expect(client.request("start") == "ok game 1.0 running")
    let startedBy = secondsNow()
    first.send(signal: SIGKILL)
    #expect(first.waitForExit() == 128 + SIGKILL)
    // The daemon is down when the clock's second ends, and when the horn's 500 ms after
    // it end.
    #expect(waitUntil { secondsNow() > startedBy + 1.5 })

    let second = try board.start()
    let again = try ControlClient(path: board.socket)
    #expect(again.request("get game") == "ok 0.0")
    let status = again.request("status") ?? ""
    #expect(status.contains("clocks=game:stopped"), "\(status)")
    #expect(status.contains("horns=main:off"), "the zero is long past: \(status)")
    #expect(board.module.waitUntilShowing("  0.0"), "\(board.module.account)")
    second.send(signal: SIGTERM)
    #expect(second.waitForExit() == 0)
    #expect(board.folder.readNewest("state")?.contains("clock game 0 stopped") == true)
  }
}
