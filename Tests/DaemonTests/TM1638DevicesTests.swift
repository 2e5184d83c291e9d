import LinuxIO
import ProtocolDecoders
import ScoreboardConfig
import ScoreboardCore
import TestSupport
import Testing

@testable import ScoreboardDaemon

/// A TM1638 board as the daemon opens it from a configuration, on fake lines with the
/// independent decoder as its chip: one line request that is a display and a keypad.
@Suite struct TM1638DevicesTests {
  static let text = """
    [display board]
    driver = tm1638
    digits = 8
    stb = GPIO17
    clk = GPIO27
    dio = GPIO22
    keymap = board
    led-1 = possession H
    led-8 = possession A
    [field home]
    position = 1
    digits = 2
    [field possession]
    values = H A
    position = 8
    [keymap board]
    BTN_0 = add home +1
    BTN_7 = set possession A

    """

  /// Devices of the configuration on fake lines, and the chip on the board's lines.
  struct Bench {
    let devices: Devices
    let backend = FakeGPIOBackend()
    let chip: TM1638Chip
    /// Virtual time: it moves to each deadline, and with the bit delays of each frame.
    let clock = SteppedTimeSource()
    var keys: [KeyEvent] = []

    init(_ configuration: Configuration, log: LogCapture) throws {
      devices = try Devices(
        configuration, gpio: backend, logger: log.logger, loop: PollLoop(), clock: clock,
        at: clock.now())
      chip = TM1638Chip(on: try #require(backend.requests.first))
    }

    /// Runs the devices' deadlines for `milliseconds`, as the loop would, keeping the keys.
    mutating func run(for milliseconds: Int64) {
      var collected: [KeyEvent] = []
      devices.onKeys = { collected += $0 }
      let end = clock.now() + .milliseconds(milliseconds)
      while let deadline = devices.watch(), deadline < end {
        clock.time = max(clock.time, deadline)
        devices.serviceDue(at: clock.now())
      }
      keys += collected
      chip.catchUp()
    }
  }

  @Test func theBoardShowsTheScoreAndLightsAndItsButtonsAreAKeypad() throws {
    let log = try LogCapture()
    let configuration = try Configuration.parse(Self.text, path: "board.conf")
    var bench = try Bench(configuration, log: log)
    #expect(bench.backend.requests.count == 1, "one request for the display and the keypad")
    let board = Scoreboard(spec: configuration.scoreboard)
    bench.devices.show(board, at: bench.clock.now())
    bench.run(for: 50)
    #expect(bench.chip.decoder.digits.prefix(2) == [0x00, 0x3F], "home: \" 0\"")
    #expect(bench.chip.decoder.lights == [true] + Array(repeating: false, count: 7))
    #expect(bench.devices.keypadStatus == [ControlStatus.Device(name: "board", isOnline: true)])

    bench.chip.decoder.pressed = [1]
    bench.run(for: 100)
    #expect(bench.keys.map(\.key) == [Key("BTN_0")!])
    #expect(bench.keys.map(\.keypad) == ["board"])
    #expect(bench.chip.decoder.violations.isEmpty)
  }

  @Test func aReloadThatKeepsTheSectionKeepsTheBoardReadingItsButtons() throws {
    let log = try LogCapture()
    let configuration = try Configuration.parse(Self.text, path: "board.conf")
    var bench = try Bench(configuration, log: log)
    bench.devices.show(Scoreboard(spec: configuration.scoreboard), at: bench.clock.now())
    bench.run(for: 30)
    let reloaded = try Configuration.parse(
      Self.text + "[field away]\nposition = 4\ndigits = 2\n", path: "board.conf")
    bench.devices.apply(reloaded, at: bench.clock.now())
    #expect(bench.backend.requests.count == 1, "the board is kept")
    bench.chip.decoder.pressed = [8]
    bench.run(for: 100)
    #expect(bench.keys.map(\.key) == [Key("BTN_7")!])

    let changed = try Configuration.parse(
      Self.text.split(separator: "\n").filter { $0 != "led-8 = possession A" }
        .joined(separator: "\n"), path: "board.conf")
    bench.devices.apply(changed, at: bench.clock.now())
    #expect(bench.backend.requests.count == 2, "a changed section opens the board anew")
    #expect(bench.devices.keypadStatus == [ControlStatus.Device(name: "board", isOnline: true)])
  }
}
