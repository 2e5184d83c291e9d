@preconcurrency import Glibc
import Testing

/// The daemon as systemd runs it: notifications, the watchdog, reload and stop.
@Suite(.serialized) struct ServiceTests {
  static func configuration(folder: String, extra: String = "") -> String {
    """
    [scoreboard]
    state-file = \(folder)/state
    control-socket = \(folder)/control

    [display main]
    driver = terminal
    digits = 6

    [field home]
    position = 1
    digits = 2

    [field away]
    position = 4
    digits = 2
    \(extra)
    """
  }

  static func folder(of path: String) -> String {
    String(path[..<path.lastIndex(of: "/")!])
  }

  @Test func notifiesReadyStatusWatchdogReloadingAndStopping() throws {
    let path = try temporaryFile(named: "service.conf", contents: "")
    let folder = Self.folder(of: path)
    try writeFile(path, Self.configuration(folder: folder))
    let receiver = try NotifyReceiver(folder: folder)
    let daemon = try DaemonProcess(
      arguments: ["--config", path],
      environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "200000"])

    let ready = try #require(receiver.waitFor("READY=1"), "\(daemon.stderrText)")
    #expect(ready.contains { $0.hasPrefix("STATUS=home 0 away 0, 1 display") })
    var pings = 0
    while pings < 5, receiver.waitFor("WATCHDOG=1", timeout: 2) != nil {
      pings += 1
    }
    #expect(pings == 5, "the loop pings the watchdog while idle")

    let client = try ControlClient(path: folder + "/control")
    #expect(client.request("set home 12") == "ok home 12")
    #expect(receiver.waitFor("STATUS=home 12 away 0") != nil)

    daemon.send(signal: SIGHUP)
    let reloading = try #require(receiver.waitFor("RELOADING=1"))
    #expect(reloading.contains { $0.hasPrefix("MONOTONIC_USEC=") })
    #expect(receiver.waitFor("READY=1") != nil, "ready again after the reload")

    daemon.send(signal: SIGTERM)
    #expect(receiver.waitFor("STOPPING=1") != nil)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func reloadAppliesAGoodFileAndKeepsTheScores() throws {
    let path = try temporaryFile(named: "reload.conf", contents: "")
    let folder = Self.folder(of: path)
    try writeFile(path, Self.configuration(folder: folder))
    let daemon = try DaemonProcess(arguments: ["--config", path])
    let client = try ControlClient(path: folder + "/control")
    #expect(client.request("set home 12") == "ok home 12")
    #expect(daemon.waitForLine { $0 == "main: 12  0" } != nil)

    // The away field moves and a period field appears.
    try writeFile(
      path,
      Self.configuration(folder: folder).replacingPosition(of: "away", with: 3)
        + "\n[field period]\nposition = 6\nvalues = 1 2 3 4\n")
    daemon.send(signal: SIGHUP)
    #expect(daemon.waitForLine { $0 == "main: 12  0 1" } != nil, "\(daemon.stderrText)")
    let reloaded = try ControlClient(path: folder + "/control")
    #expect(reloaded.request("get home") == "ok 12")
    #expect(reloaded.request("set period 4") == "ok period 4")

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func reloadRejectsABadFileAndKeepsRunning() throws {
    let path = try temporaryFile(named: "reload.conf", contents: "")
    let folder = Self.folder(of: path)
    try writeFile(path, Self.configuration(folder: folder))
    let daemon = try DaemonProcess(arguments: ["--config", path])
    let client = try ControlClient(path: folder + "/control")
    #expect(client.request("set away 7") == "ok away 7")

    try writeFile(path, Self.configuration(folder: folder) + "\ncolour = red\n[field x]\n")
    daemon.send(signal: SIGHUP)
    #expect(daemon.waitForStderr { $0.contains("reload.conf:17:") && $0.contains("keeping") })
    #expect(client.request("get away") == "ok 7", "the old configuration still runs")
    #expect(client.request("set home 3") == "ok home 3")

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func aCorruptStateFileIsSetAsideAndTheDefaultsUsed() throws {
    let path = try temporaryFile(named: "corrupt.conf", contents: "")
    let folder = Self.folder(of: path)
    try writeFile(path, Self.configuration(folder: folder))
    try writeFile(folder + "/state", "garbage\u{0}\u{7}\n")
    let daemon = try DaemonProcess(arguments: ["--config", path])
    let client = try ControlClient(path: folder + "/control")
    #expect(client.request("get home") == "ok 0")
    #expect(daemon.waitForStderr { $0.contains("set aside") }, "\(daemon.stderrText)")
    #expect(try filesInFolder(folder).contains { $0.hasPrefix("state.corrupt-") })
    #expect(client.request("set home 5") == "ok home 5")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}

extension String {
  /// The configuration text with the `position` of field `field` replaced.
  func replacingPosition(of field: String, with position: Int) -> String {
    var lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let header = lines.firstIndex(of: "[field \(field)]") else { return self }
    for index in (header + 1)..<lines.count where lines[index].hasPrefix("position") {
      lines[index] = "position = \(position)"
      break
    }
    return lines.joined(separator: "\n")
  }
}
