@preconcurrency import Glibc
import TestSupport
import Testing

/// The daemon as systemd runs it: notifications, the watchdog, reload and stop.
@Suite(.serialized) struct ServiceTests {
  static func configuration(folder: TemporaryFolder, extra: String = "") -> String {
    """
    \(ScoreboardSection.text(in: folder))

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

  @Test func notifiesReadyStatusWatchdogReloadingAndStopping() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("service.conf", Self.configuration(folder: folder))
    let receiver = try NotifyReceiver(folder: folder.path)
    let daemon = try DaemonProcess(
      arguments: ["--config", path],
      environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "200000"], folder: folder)

    let ready = try #require(receiver.waitFor("READY=1"), "\(daemon.stderrText)")
    #expect(ready.contains { $0.hasPrefix("STATUS=home 0 away 0, 1 display") })
    var pings = 0
    while pings < 5, receiver.waitFor("WATCHDOG=1", timeout: 2) != nil {
      pings += 1
    }
    #expect(pings == 5, "the loop pings the watchdog while idle")

    let client = try ControlClient(path: folder.path(of: "control"))
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

  /// A burst of changes wakes systemd at most once a second: the first change's STATUS=
  /// at once, the latest once the second has passed, none for those between.
  @Test func aBurstOfChangesSendsTheFirstAndTheLatestStatus() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("service.conf", Self.configuration(folder: folder))
    let receiver = try NotifyReceiver(folder: folder.path)
    let daemon = try DaemonProcess(
      arguments: ["--config", path], environment: ["NOTIFY_SOCKET": receiver.path],
      folder: folder)
    #expect(receiver.waitFor("READY=1") != nil, "\(daemon.stderrText)")
    let client = try ControlClient(path: folder.path(of: "control"))
    for home in 1...20 {
      #expect(client.request("set home \(home)") == "ok home \(home)")
    }
    var statuses: [String] = []
    while let datagram = receiver.next(timeout: 2.5) {
      statuses += datagram.filter { $0.hasPrefix("STATUS=") }
    }
    #expect(statuses.count <= 3, "\(statuses)")
    #expect(statuses.last?.hasPrefix("STATUS=home 20 away 0") == true, "\(statuses)")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  /// Under systemd standard input is /dev/null: a terminal keypad there (the reference
  /// configuration's, on the first start after installing the package) is mentioned once,
  /// as information, not as a fault, and the daemon runs on.
  @Test func aTerminalKeypadOnTheServicesNullInputIsInformationNotAWarning() throws {
    let folder = try TemporaryFolder()
    let keypad = """
      [keypad console]
      driver = terminal
      keymap = keys

      [keymap keys]
      KEY_H = add home +1
      """
    let path = try folder.write(
      "service.conf", Self.configuration(folder: folder, extra: keypad))
    let daemon = try DaemonProcess(arguments: ["--config", path], folder: folder)
    let line =
      "<6>keypad console: standard input is /dev/null, as for a service, which has no "
      + "terminal; not reading it"
    #expect(daemon.waitForStderr { $0.contains(line) }, "\(daemon.stderrText)")
    #expect(!daemon.stderrText.contains("<4>"), "\(daemon.stderrText)")
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("set home 3") == "ok home 3")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func reloadAppliesAGoodFileAndKeepsTheScores() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("reload.conf", Self.configuration(folder: folder))
    let daemon = try DaemonProcess(arguments: ["--config", path], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("set home 12") == "ok home 12")
    #expect(daemon.waitForLine { $0 == "main: 12  0" } != nil)

    // The away field moves and a period field appears.
    try folder.write(
      "reload.conf",
      Self.configuration(folder: folder).replacingPosition(of: "away", with: 3)
        + "\n[field period]\nposition = 6\nvalues = 1 2 3 4\n")
    daemon.send(signal: SIGHUP)
    #expect(daemon.waitForLine { $0 == "main: 12  0 1" } != nil, "\(daemon.stderrText)")
    let reloaded = try ControlClient(path: folder.path(of: "control"))
    #expect(reloaded.request("get home") == "ok 12")
    #expect(reloaded.request("set period 4") == "ok period 4")

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func reloadRejectsABadFileAndKeepsRunning() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("reload.conf", Self.configuration(folder: folder))
    let daemon = try DaemonProcess(arguments: ["--config", path], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("set away 7") == "ok away 7")

    try folder.write(
      "reload.conf", Self.configuration(folder: folder) + "\ncolour = red\n[field x]\n")
    daemon.send(signal: SIGHUP)
    #expect(daemon.waitForStderr { $0.contains("reload.conf:17:") && $0.contains("keeping") })
    #expect(client.request("get away") == "ok 7", "the old configuration still runs")
    #expect(client.request("set home 3") == "ok home 3")

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func aCorruptStateFileIsSetAsideAndTheDefaultsUsed() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("corrupt.conf", Self.configuration(folder: folder))
    try folder.write("state", "garbage\u{0}\u{7}\n")
    let daemon = try DaemonProcess(arguments: ["--config", path], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("get home") == "ok 0")
    #expect(daemon.waitForStderr { $0.contains("set aside") }, "\(daemon.stderrText)")
    #expect(folder.names().contains { $0.hasPrefix("state.corrupt-") })
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
