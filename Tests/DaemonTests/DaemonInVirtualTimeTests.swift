@preconcurrency import Glibc
import LinuxIO
import ProtocolDecoders
import ScoreboardCore
import TestSupport
import Testing

@testable import ScoreboardDaemon

/// The whole daemon (its logic, devices, state file, control socket and loop) in the
/// test's process, driven in virtual time: what reaches each wire, and when.
@Suite(.serialized) struct DaemonInVirtualTimeTests {
  static let gameClock = """
    [display clock]
    driver = tm1637
    clk = GPIO5
    dio = GPIO6
    digits = 4

    [field game]
    type = clock
    display = clock
    position = 1
    length = 0:03
    tenths-below = never

    [horn main]
    driver = gpio
    line = GPIO13
    clocks = game
    duration = 1500ms
    hold-limit = 2s
    """
  static let clockKeys = "KEY_SPACE = start-stop\nKEY_Z = horn"
  /// A ten-minute game clock on GPIO lines.
  static let longClock = gameClock.replacing("length = 0:03", with: "length = 10:00")

  @Test func aKeyIsOnTheWireInItsRoundAndItsAnswerWaitsForTheStateFile() throws {
    let harness = try DaemonHarness()
    // The first frame's bytes take their wire time; then the line is free.
    try harness.advance(by: .milliseconds(100))
    #expect(harness.shows == " 0 0")
    let watcher = try harness.controlClient()
    #expect(try harness.request("watch", from: watcher) == "ok watching")

    try harness.press("KEY_KPPLUS")
    // The frame is on the wire when the round of the key ends.
    #expect(harness.shows == " 1 0")
    #expect(watcher.readLine(timeout: 1) == "event value home 1")

    // A request's answer comes once the change is on the disk.
    let client = try harness.controlClient()
    #expect(try harness.request("set away 7", from: client) == "ok away 7")
    #expect(harness.folder.readNewest("state")?.contains("away") == true)
    // The key's bytes still take their wire time (virtual time has not moved): the new
    // frame waits for the line, then goes out.
    #expect(harness.shows == " 1 0")
    try harness.advance(by: .milliseconds(5))
    #expect(harness.shows == " 1 7")
  }

  /// What stops a batch of requests: a key waiting in a keypad, or the board's deadline
  /// come (the cursor's blink here, a clock's frame in a game).
  @Test func aKeyOrTheBoardsDeadlineIsMoreUrgentThanTheNextRequest() throws {
    let harness = try DaemonHarness(keys: "KEY_S = select home")
    try harness.advance(by: .milliseconds(100))
    #expect(!harness.daemon.urgentWorkWaits)
    try harness.key("KEY_S", pressed: true)
    #expect(harness.daemon.urgentWorkWaits, "a key waits")
    try harness.settle()
    #expect(!harness.daemon.urgentWorkWaits)
    let blink = try #require(harness.daemon.nextDeadline)
    harness.clock.time = blink
    #expect(harness.daemon.urgentWorkWaits, "the cursor's blink is due")
    try harness.settle()
    #expect(!harness.daemon.urgentWorkWaits)
  }

  /// A client's lines read when the board's deadline has come: one is answered, the
  /// frames due are drawn, and the round's end answers the others, in order.
  @Test func requestsLeftForTheBoardsDeadlineAreAnsweredInTheSameRound() throws {
    let harness = try DaemonHarness(keys: "KEY_S = select home")
    try harness.advance(by: .milliseconds(100))
    let client = try harness.controlClient()
    try harness.key("KEY_S", pressed: true)
    try harness.settle()
    harness.clock.time = try #require(harness.daemon.nextDeadline)
    // `status` is answered at once (a `get` waits for the saves before it).
    #expect(client.send(Array(repeating: "status", count: 20).joined(separator: "\n")))
    try harness.settle()
    var answers: [String] = []
    while answers.count < 20, let line = client.readLine(timeout: 1) {
      answers.append(line)
    }
    #expect(answers.count == 20)
    #expect(
      answers.allSatisfy { $0.hasPrefix("ok home=0 away=0 brightness=8 blank=off editing=home ") },
      "\(answers)")
  }

  /// A key that does nothing read once the board's deadline has come, before the round
  /// for that deadline: the frames due then are drawn all the same. A press that is not
  /// mapped takes a step that changes nothing, which draws them, and whose next deadline
  /// is a later one; a release takes no step, and the round's deadline draws them.
  @Test(arguments: [true, false])
  func aKeyThatDoesNothingAfterTheBoardsDeadlineShowsTheFramesDueThen(pressed: Bool) throws {
    let harness = try DaemonHarness(keys: "KEY_S = select home")
    try harness.advance(by: .milliseconds(100))
    try harness.press("KEY_S")
    let cursorOn = harness.shows
    // Past the cursor's blink (500 ms) without a round; then the key comes.
    harness.clock.time = harness.clock.now() + .milliseconds(600)
    try harness.key("KEY_F12", pressed: pressed)
    try harness.settle()
    #expect(harness.shows != cursorOn, "the cursor blinked: \(cursorOn) and \(harness.shows)")
    try harness.advance(by: .milliseconds(500))
    #expect(harness.shows == cursorOn)
  }

  /// A key's release read alone, once the state file's held write is due and before the
  /// round for it: the round that reads the release starts the write, as the round for
  /// its deadline would have, and leaves nothing overdue.
  @Test func aReleaseReadOnceAHeldWriteIsDueStartsTheWrite() throws {
    let harness = try DaemonHarness()
    try harness.advance(by: .milliseconds(100))
    try harness.press("KEY_KPPLUS")
    harness.clock.time = harness.clock.now() + .milliseconds(2)
    // Written within the interval after the last write: held until it has passed.
    try harness.key("KEY_KPPLUS", pressed: true)
    try harness.settle()
    let held = try #require(harness.daemon.nextDeadline)
    #expect(held > harness.clock.now())
    harness.clock.time = held + .milliseconds(1)
    try harness.key("KEY_KPPLUS", pressed: false)
    try harness.settle()
    let overdue = harness.daemon.nextDeadline.map { $0 <= harness.clock.now() } ?? false
    #expect(!overdue, "the held write's deadline \(held) is still due at \(harness.clock.now())")
    let saved = try harness.runUntil {
      harness.folder.readNewest("state")?.contains("field home 2\n") == true
    }
    #expect(saved, "\(harness.folder.readNewest("state") ?? "no state file")")
  }

  /// The keys of a burst are saved together once the interval after the last write has
  /// passed, with the burst's last value.
  @Test func aBurstOfKeysIsSavedWithItsLastValue() throws {
    let harness = try DaemonHarness()
    try harness.advance(by: .milliseconds(100))
    try harness.press("KEY_KPPLUS", times: 9, every: .milliseconds(2))
    #expect(harness.shows == " 9 0")
    try harness.advance(by: .milliseconds(50))
    let saved = try harness.runUntil {
      harness.folder.readNewest("state")?.contains("field home 9\n") == true
    }
    #expect(saved, "\(harness.folder.readNewest("state") ?? "no state file")")
  }

  /// 99 keys on a 2400-baud line, `interval` apart, each carried out in a round of its
  /// own: the bytes the S7S module received until it showed 99, and those it had
  /// received when the last key came.
  private static func bytesForKeys(every interval: Duration) throws -> (total: Int, duringKeys: Int)
  {
    let harness = try DaemonHarness(baud: 2400)
    try harness.advance(by: .seconds(1))
    let before = harness.bytesOnWire
    for _ in 1...99 {
      try harness.advance(by: interval)
      try harness.press("KEY_KPPLUS")
    }
    let duringKeys = harness.bytesOnWire - before
    try harness.advance(by: .seconds(1))
    #expect(harness.shows == "99 0", "the final state")
    return (harness.bytesOnWire - before, duringKeys)
  }

  @Test func keysFasterThanTheWireAreCoalescedToTheLatestFrame() throws {
    // A byte takes 1/240 s at 2400 baud (ten bits a byte). Keys a second apart leave the
    // line idle between them: every key's update goes out whole.
    let onePerKey = try Self.bytesForKeys(every: .seconds(1)).total
    // Keys 2 ms apart: in the 198 ms from the first to the last, the line carries 47
    // bytes; the daemon never writes ahead of it, so the frames it had no time for are
    // never sent, and the last key's frame follows: 47 bytes and one frame in all.
    let fast = try Self.bytesForKeys(every: .milliseconds(2))
    let longestFrame = 6
    #expect(fast.duringKeys <= 47 + longestFrame)
    #expect(fast.total <= 47 + 2 * longestFrame)
    #expect(fast.total * 3 < onePerKey, "\(fast.total) bytes; \(onePerKey) for one update per key")
  }

  /// A button on GPIO17 that adds 1 to away, debounced for 20 ms.
  static let button = """
    [keypad buttons]
    driver = gpio-buttons
    keymap = buttons
    BTN_0 = GPIO17
    debounce = 20ms

    [keymap buttons]
    BTN_0 = add away +1
    """

  @Test func theKernelDebouncesAButtonWhereItCan() throws {
    let harness = try DaemonHarness(kernelDebounce: true, extra: Self.button)
    let button = try #require(harness.lines(of: "GPIO17"))
    #expect(button.settings[0].debounce == 20_000_000)
  }

  @Test func whereTheKernelCannotTheDaemonDebouncesAButton() throws {
    let harness = try DaemonHarness(kernelDebounce: false, extra: Self.button)
    let button = try #require(harness.lines(of: "GPIO17"))
    #expect(button.settings[0].debounce == nil)
    let start = harness.clock.now()
    /// Drives the button's line to `level` at `milliseconds` after the start.
    func drive(_ level: Bool, at milliseconds: Int64) throws {
      try harness.advance(to: start + .milliseconds(milliseconds))
      button.drive(0, level, at: harness.clock.now().nanoseconds)
      try harness.settle()
    }
    // A press that bounces, then stays: it counts once, 20 ms after its last edge.
    try drive(true, at: 0)
    try drive(false, at: 2)
    try drive(true, at: 4)
    try harness.advance(to: start + .milliseconds(23))
    #expect(harness.shows == " 0 0")
    try harness.advance(to: start + .milliseconds(24))
    #expect(harness.shows == " 0 1")
    // A glitch shorter than the period while it is held is no press; nor is the release.
    try drive(false, at: 100)
    try drive(true, at: 105)
    try drive(false, at: 300)
    try harness.advance(to: start + .milliseconds(400))
    #expect(harness.shows == " 0 1")
    // The next press counts.
    try drive(true, at: 500)
    try harness.advance(to: start + .milliseconds(520))
    #expect(harness.shows == " 0 2")
  }

  @Test func aClockCountsDownOnTheWireAndTheHornSoundsAtZeroForItsDuration() throws {
    let harness = try DaemonHarness(keys: Self.clockKeys, extra: Self.gameClock)
    let horn = try #require(harness.lines(of: "GPIO13"))
    let start = harness.clock.now()
    try harness.press("KEY_SPACE")
    try harness.advance(to: start + .milliseconds(2_999))
    #expect(horn.values == [false])
    try harness.advance(to: start + .seconds(3))
    #expect(horn.values == [true], "on at the clock's zero, to the nanosecond")
    try harness.advance(to: start + .milliseconds(4_499))
    #expect(horn.values == [true])
    try harness.advance(to: start + .milliseconds(4_500))
    #expect(horn.values == [false], "off 1.5 s later")
  }

  /// The board of the two tests below: a MAX7219 set up again every 62.5 s, off the
  /// watchdog's beat, beside the harness's S7S (refreshed every 60 s).
  static let reinitialisedClock = """
    [display clock]
    driver = max7219
    din = GPIO5
    clk = GPIO6
    load = GPIO12
    digits = 4
    reinit-interval = 62500ms

    [field game]
    type = clock
    display = clock
    position = 1
    length = 10:00
    """

  /// What 130 s of an idle `reinitialisedClock` board did: each instant the loop woke,
  /// how many times the MAX7219 was set up again in full, and the S7S's bytes.
  static func idleFor130Seconds(_ harness: DaemonHarness) throws -> (
    wakeups: [Instant], setUps: Int, s7sBytes: Int
  ) {
    try harness.advance(by: .seconds(1))
    let lines = try #require(harness.lines(of: "GPIO5"))
    var chain = MAX7219ChainDecoder(chipCount: 1)
    chain.receive(lines.transitions.map { (line: $0.line, high: $0.value) })
    let initialisation = chain.chips[0].writes
    #expect(initialisation > 4)
    let alreadyDecoded = lines.transitions.count
    let start = harness.clock.now()
    let bytesBefore = harness.bytesOnWire

    var wakeups: [Instant] = []
    while let deadline = harness.daemon.nextDeadline, deadline <= start + .seconds(130) {
      wakeups.append(deadline)
      try harness.advance(to: deadline)
    }
    chain.receive(
      lines.transitions.dropFirst(alreadyDecoded).map { (line: $0.line, high: $0.value) })
    #expect(chain.violations.isEmpty)
    #expect(harness.shows == " 0 0")
    let writesSince = chain.chips[0].writes - initialisation
    #expect(writesSince % initialisation == 0, "whole set-ups only: \(writesSince) writes")
    return (wakeups, writesSince / initialisation, harness.bytesOnWire - bytesBefore)
  }

  /// Under systemd's watchdog, the displays of an idle board are set up again in full
  /// at the first ping (every 5 s) after their interval: the pings stay the loop's only
  /// wakeups.
  @Test func anIdleBoardsDisplaysAreReinitialisedOnTheWatchdogsPings() throws {
    let folder = try TemporaryFolder()
    let receiver = try NotifyReceiver(folder: folder.path)
    let harness = try DaemonHarness(
      folder: folder, extra: Self.reinitialisedClock,
      systemd: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "10000000"])
    let idle = try Self.idleFor130Seconds(harness)
    #expect(idle.setUps == 2, "set up again twice, in full")
    #expect(idle.s7sBytes >= 2 * 10, "the S7S's digits and points, twice")
    let gaps = zip(idle.wakeups.dropFirst(), idle.wakeups).map { $0 - $1 }
    #expect(gaps.allSatisfy { $0 == .seconds(5) }, "the pings alone: \(idle.wakeups)")
  }

  /// Without a watchdog the loop wakes for each display's refresh itself, and for
  /// nothing else; a display's next frame carries its refresh, its change first.
  @Test func withoutAWatchdogTheLoopWakesForTheRefreshAlone() throws {
    let harness = try DaemonHarness(extra: Self.reinitialisedClock)
    let idle = try Self.idleFor130Seconds(harness)
    #expect(idle.setUps == 2, "set up again twice, in full")
    #expect(idle.s7sBytes >= 2 * 10, "the S7S's digits and points, twice")
    #expect(idle.wakeups.count == 4, "the two displays' refreshes alone: \(idle.wakeups)")

    // The S7S's next refresh is due 60 s after its last: a key then carries it.
    harness.clock.time = harness.clock.now() + .seconds(59)
    let bytesBeforeKey = harness.bytesOnWire
    try harness.press("KEY_KPPLUS")
    try harness.advance(by: .milliseconds(100))
    #expect(harness.shows == " 1 0")
    #expect(harness.bytesOnWire - bytesBeforeKey == 10, "the change, then the rest")
  }

  /// The loop takes no step for most releases; a horn key's is one it must take.
  @Test func theHornKeysReleaseStopsTheHorn() throws {
    let harness = try DaemonHarness(keys: Self.clockKeys, extra: Self.gameClock)
    let horn = try #require(harness.lines(of: "GPIO13"))
    try harness.key("KEY_Z", pressed: true)
    try harness.settle()
    #expect(horn.values == [true])
    try harness.advance(by: .milliseconds(500))
    try harness.key("KEY_SPACE", pressed: false)
    try harness.settle()
    #expect(horn.values == [true], "another key's release leaves it sounding")
    try harness.key("KEY_Z", pressed: false)
    try harness.settle()
    #expect(horn.values == [false])
  }

  @Test func theHornKeySoundsWhileHeldAndAtMostItsHoldLimit() throws {
    let harness = try DaemonHarness(keys: Self.clockKeys, extra: Self.gameClock)
    let horn = try #require(harness.lines(of: "GPIO13"))
    let start = harness.clock.now()
    try harness.key("KEY_Z", pressed: true)
    try harness.settle()
    #expect(horn.values == [true])
    try harness.advance(to: start + .milliseconds(1_999))
    #expect(horn.values == [true])
    try harness.advance(to: start + .seconds(2))
    #expect(horn.values == [false], "the hold limit ends it while the key is still down")
  }

  @Test func aBadReloadKeepsTheRunningConfigurationAndAGoodOneKeepsUnchangedDevices()
    throws
  {
    let harness = try DaemonHarness(keys: Self.clockKeys, extra: Self.gameClock)
    let requests = harness.gpio.requests.count
    let client = try harness.controlClient()
    #expect(try harness.request("set home 12", from: client) == "ok home 12")

    _ = try harness.folder.write("scoreboardd.conf", "[display broken\n")
    pthread_kill(pthread_self(), SIGHUP)
    #expect(try harness.runUntil { harness.log.lines.contains { $0.contains("reload failed") } })
    #expect(try harness.request("get home", from: client) == "ok 12")

    let good = DaemonHarness.configuration(
      folder: harness.folder, port: harness.terminalPath, keys: Self.clockKeys,
      extra: Self.gameClock)
    _ = try harness.folder.write(
      "scoreboardd.conf",
      good.replacing("blink-interval = 500ms", with: "blink-interval = 400ms"))
    pthread_kill(pthread_self(), SIGHUP)
    #expect(try harness.runUntil { harness.log.lines.contains { $0.contains("reloaded") } })
    #expect(harness.gpio.requests.count == requests, "the unchanged clock and horn are kept")
    #expect(try harness.request("get home", from: client) == "ok 12")
    // The kept keypad and display go on working.
    try harness.press("KEY_KPPLUS")
    #expect(try harness.request("get home", from: client) == "ok 13")
    #expect(try harness.runUntil { harness.isOnline("score") == true })
  }

  /// A reload that moves the state file first writes what was held for the old file,
  /// as the board was before the reload: the old file keeps a field the new
  /// configuration drops.
  @Test func aReloadToAnotherStateFileLeavesTheOldOneWithTheBoardBeforeIt() throws {
    let harness = try DaemonHarness()
    try harness.advance(by: .milliseconds(100))
    try harness.press("KEY_KPPLUS", times: 3, every: .milliseconds(2))
    let moved = DaemonHarness.configuration(
      folder: harness.folder, port: harness.terminalPath, extra: ""
    )
    .replacing(harness.folder.path(of: "state"), with: harness.folder.path(of: "moved"))
    .replacing("[field home]", with: "[field guests]")
    .replacing("add home", with: "add guests")
    _ = try harness.folder.write("scoreboardd.conf", moved)
    pthread_kill(pthread_self(), SIGHUP)
    #expect(try harness.runUntil { harness.log.lines.contains { $0.contains("reloaded") } })
    let old = harness.folder.readNewest("state") ?? "no state file"
    #expect(old.contains("field home 3\n"), "\(old)")
  }

  @Test func aDisplayGoesOfflineAndComesBackAtItsRetry() throws {
    let harness = try DaemonHarness(
      extra: """
        [display spare]
        driver = s7s
        port = $FOLDER/spare
        baud = 115200

        [field period]
        display = spare
        position = 4
        digits = 1
        """)
    let watcher = try harness.controlClient()
    #expect(try harness.request("watch", from: watcher) == "ok watching")
    #expect(harness.isOnline("spare") == false, "no port at the start")

    // The port appears: the display opens it at its next retry, in virtual time.
    var module = try PseudoTerminal.open()
    #expect(symlink(module.slavePath, harness.folder.path(of: "spare")) == 0)
    try harness.advance(by: .seconds(5))
    #expect(harness.isOnline("spare") == true)
    #expect(watcher.readLine(timeout: 1) == "event display spare online")

    // Its line hangs up: offline at once; back at the retry after the port returns.
    try module.master.close()
    try harness.settle()
    #expect(harness.isOnline("spare") == false)
    #expect(watcher.readLine(timeout: 1) == "event display spare offline")
    module = try PseudoTerminal.open()
    unlink(harness.folder.path(of: "spare"))
    #expect(symlink(module.slavePath, harness.folder.path(of: "spare")) == 0)
    try harness.advance(by: .seconds(5))
    #expect(harness.isOnline("spare") == true)
    #expect(watcher.readLine(timeout: 1) == "event display spare online")
  }

  @Test func aKeypadComesOnlineWhenItsDeviceAppears() throws {
    let harness = try DaemonHarness(
      extra: """
        [keypad spare]
        driver = evdev
        device = $FOLDER/spare
        grab = no
        keymap = numpad
        """)
    let watcher = try harness.controlClient()
    #expect(try harness.request("watch", from: watcher) == "ok watching")
    #expect(harness.isKeypadOnline("spare") == false, "no device at the start")

    // The device appears: the keypad opens it when its folder changes.
    _ = try harness.folder.makeFIFO("spare")
    #expect(try harness.runUntil { harness.isKeypadOnline("spare") == true })
    #expect(watcher.readLine(timeout: 1) == "event keypad spare online")
    #expect(harness.isKeypadOnline("numpad") == true, "the other keypad is left alone")
  }

  @Test func aClockSavedRunningInAnotherBootComesBackStoppedWhereItStarted() throws {
    let folder = try TemporaryFolder()
    let board = Self.clockKeys
    do {
      let first = try DaemonHarness(
        folder: folder, bootID: "boot-1", keys: board, extra: Self.longClock)
      try first.press("KEY_SPACE")
      try first.advance(by: .milliseconds(1_500))
      let client = try first.controlClient()
      #expect(try first.request("get game", from: client) == "ok 9:58.5")
    }
    // The next start is in another boot: the saved start instant is on another clock.
    let second = try DaemonHarness(
      folder: folder, bootID: "boot-2", keys: board, extra: Self.longClock)
    let client = try second.controlClient()
    #expect(try second.request("get game", from: client) == "ok 10:00.0")
    #expect(try second.request("status", from: client)?.contains("clocks=game:stopped") == true)
    #expect(second.log.lines.contains { $0.contains("earlier boot") && $0.contains("10:00.0") })
  }

  @Test func aClockSavedRunningInThisBootRunsOnFromItsStart() throws {
    let folder = try TemporaryFolder()
    let started: Instant
    do {
      let first = try DaemonHarness(folder: folder, keys: Self.clockKeys, extra: Self.longClock)
      started = first.clock.now()
      try first.press("KEY_SPACE")
      try first.advance(by: .milliseconds(1_500))
    }
    // Down for 2 s of the same boot: the clock ran on meanwhile.
    let second = try DaemonHarness(
      folder: folder, at: started + .milliseconds(3_500), keys: Self.clockKeys,
      extra: Self.longClock)
    let client = try second.controlClient()
    #expect(try second.request("get game", from: client) == "ok 9:56.5")
    #expect(try second.request("status", from: client)?.contains("clocks=game:running") == true)
  }
}
