@preconcurrency import Glibc
import TestSupport
import Testing

/// Every control command against the real daemon, and misbehaving clients beside a
/// well-behaved one.
@Suite(.serialized) struct ControlSocketTests {
  static func start() throws -> (DaemonProcess, String) {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      "control.conf",
      """
      \(ScoreboardSection.text(in: folder))
      control-clients = 3

      [display main]
      driver = terminal
      digits = 6

      [field home]
      position = 1
      digits = 2

      [field period]
      position = 4
      values = 1 2 3 OT

      [keypad keys]
      driver = terminal
      device = /dev/null
      keymap = keys

      [keymap keys]
      KEY_1 = digit 1
      KEY_2 = digit 2
      KEY_ENTER = commit
      """)
    return (
      try DaemonProcess(arguments: ["--config", path], folder: folder), folder.path(of: "control")
    )
  }

  @Test func everyCommand() throws {
    let (daemon, socket) = try Self.start()
    let client = try ControlClient(path: socket)
    let answers = [
      "status", "get home", "set home 7", "add home +3", "add period -1", "press KEY_1",
      "press KEY_2", "get home", "undo", "get home", "press KEY_F1", "brightness up",
      "brightness 3", "blank on", "blank off", "reset", "status", "set home 100",
      "get visitors", "frobnicate",
    ].map { (request: $0, answer: client.request($0)) }
    let expected = [
      "ok home=0 period=1 brightness=8 blank=off editing=- displays=main:online keypads=keys:offline state-file=saved",
      "ok 0", "ok home 7", "ok home 10", "ok period OT", "ok digit 1", "ok digit 2", "ok 12",
      "ok", "ok 10", "error KEY_F1 is not mapped on keypad keys", "ok brightness 9",
      "ok brightness 3", "ok blank on", "ok blank off", "ok",
      "ok home=0 period=1 brightness=3 blank=off editing=- displays=main:online keypads=keys:offline state-file=saved",
      "error '100' is not a value of home: expected a number from 0 to 99",
      "error no field named 'visitors' (fields: home, period)",
      "error unknown command 'frobnicate'; try 'help'",
    ]
    for (got, want) in zip(answers, expected) {
      #expect(got.answer == want, "\(got.request)")
    }
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func watchersSeeChangesFromEverywhere() throws {
    let (daemon, socket) = try Self.start()
    let watcher = try ControlClient(path: socket)
    #expect(watcher.request("watch") == "ok watching")
    let client = try ControlClient(path: socket)
    #expect(client.request("set home 5") == "ok home 5")
    #expect(watcher.readLine() == "event value home 5")
    #expect(client.request("blank on") == "ok blank on")
    #expect(watcher.readLine() == "event blank on")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func misbehavingClientsDoNotDisturbAWellBehavedOne() throws {
    let (daemon, socket) = try Self.start()
    let good = try ControlClient(path: socket)
    #expect(good.request("set home 1") == "ok home 1")

    let oversized = try ControlClient(path: socket)
    #expect(oversized.request(String(repeating: "x", count: 5_000)) == "error line too long")
    #expect(oversized.readLine(timeout: 2) == nil, "disconnected")

    let garbage = try ControlClient(path: socket)
    #expect(garbage.send(String(decoding: [0x73, 0x65, 0xFF, 0xFE], as: UTF8.self)))
    #expect(good.request("add home +1") == "ok home 2")

    // A flood that never reads its answers is cut off without stalling the others.
    let flood = try ControlClient(path: socket)
    for _ in 0..<20_000 where !flood.send("status") {
      break
    }
    #expect(good.request("get home") == "ok 2")
    #expect(good.request("add home +1") == "ok home 3")

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func scoreboardctlTalksToTheDaemon() throws {
    let (daemon, socket) = try Self.start()
    _ = try ControlClient(path: socket)
    let set = try DaemonProcess(
      executable: DaemonProcess.productsFolder + "/scoreboardctl",
      arguments: ["--socket", socket, "set", "home", "42"])
    #expect(set.waitForLine { $0 == "home 42" } != nil)
    #expect(set.waitForExit() == 0)
    let status = try DaemonProcess(
      executable: DaemonProcess.productsFolder + "/scoreboardctl",
      arguments: ["--socket", socket, "status", "--json"])
    #expect(status.waitForLine { $0.contains(#""home":"42""#) } != nil)
    #expect(status.waitForExit() == 0)
    let refused = try DaemonProcess(
      executable: DaemonProcess.productsFolder + "/scoreboardctl",
      arguments: ["--socket", socket, "set", "home", "420"])
    #expect(refused.waitForExit() == 1)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
