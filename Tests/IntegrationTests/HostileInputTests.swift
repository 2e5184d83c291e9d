@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// Bytes from outside that no user should be able to use to stop the daemon or fill its
/// journal: any `input_event` records on a keypad, FIFOs where files belong, floods of
/// malformed requests.
@Suite(.serialized) struct HostileInputTests {
  static func configuration(folder: TemporaryFolder, keypad: String? = nil) -> String {
    """
    \(ScoreboardSection.text(in: folder, logLevel: "info"))

    [display main]
    driver = terminal
    digits = 2

    [field home]
    position = 1
    digits = 2
    \(keypad.map { """

      [keypad numpad]
      driver = evdev
      device = \($0)
      grab = no
      keymap = numpad

      [keymap numpad]
      KEY_KP1 = digit 1
      KEY_KPENTER = commit
      KEY_KPPLUS = add home +1
      """ } ?? "")
    """
  }

  /// A FIFO standing in for an input device, held open by the test.
  static func keypadFIFO(in folder: TemporaryFolder) throws -> (
    path: String, writer: FileDescriptor
  ) {
    let path = try folder.makeFIFO("event0")
    let writer = try FileDescriptor.open(path, .readWrite)
    return (path, writer)
  }

  static func record(seconds: Int, microseconds: Int, type: UInt16, code: UInt16, value: Int32)
    -> [UInt8]
  {
    var bytes: [UInt8] = []
    withUnsafeBytes(of: CLong(truncatingIfNeeded: seconds)) { bytes += $0 }
    withUnsafeBytes(of: CLong(truncatingIfNeeded: microseconds)) { bytes += $0 }
    withUnsafeBytes(of: type) { bytes += $0 }
    withUnsafeBytes(of: code) { bytes += $0 }
    withUnsafeBytes(of: value) { bytes += $0 }
    return bytes
  }

  @Test func aRecordTenBillionSecondsLateDoesNotStopTheDaemon() throws {
    let folder = try TemporaryFolder()
    let (device, writer) = try Self.keypadFIFO(in: folder)
    defer { try? writer.close() }
    let config = try folder.write(
      "scoreboardd.conf", Self.configuration(folder: folder, keypad: device))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    // struct.pack('llHHi', 10**10, 0, 0, 0, 0), then a +1 key stamped the same.
    try writer.writeAll(
      Self.record(seconds: 10_000_000_000, microseconds: 0, type: 0, code: 0, value: 0))
    try writer.writeAll(
      Self.record(seconds: 10_000_000_000, microseconds: 0, type: 1, code: 78, value: 1)
        + Self.record(seconds: 10_000_000_000, microseconds: 0, type: 0, code: 0, value: 0))
    #expect(waitUntil { client.request("get home") == "ok 1" }, "\(daemon.stderrText)")
    #expect(daemon.waitForExit(timeout: 0.2) == nil, "still running")
  }

  @Test func aMegabyteOfRandomRecordsDoesNotStopTheDaemon() throws {
    var random = SeededRandom.forTest("random evdev records")
    let folder = try TemporaryFolder()
    let (device, writer) = try Self.keypadFIFO(in: folder)
    defer { try? writer.close() }
    let config = try folder.write(
      "scoreboardd.conf", Self.configuration(folder: folder, keypad: device))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    for _ in 0..<16 {
      var chunk = [UInt8](repeating: 0, count: 65536)
      for index in chunk.indices {
        chunk[index] = UInt8.random(in: 0...255, using: &random)
      }
      try writer.writeAll(chunk)
      #expect(client.request("get home") != nil, "\(daemon.stderrText)")
    }
    #expect(daemon.waitForExit(timeout: 0.2) == nil, "still running")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0, "\(daemon.stderrText)")
  }

  @Test func aStormOfDroppedEventsIsLoggedOnce() throws {
    let folder = try TemporaryFolder()
    let (device, writer) = try Self.keypadFIFO(in: folder)
    defer { try? writer.close() }
    let config = try folder.write(
      "scoreboardd.conf", Self.configuration(folder: folder, keypad: device))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    // SYN_DROPPED then SYN_REPORT, a thousand times: each asks for the keys down.
    var storm: [UInt8] = []
    for _ in 0..<1000 {
      storm += Self.record(seconds: 1, microseconds: 0, type: 0, code: 3, value: 0)
      storm += Self.record(seconds: 1, microseconds: 0, type: 0, code: 0, value: 0)
    }
    try writer.writeAll(storm)
    #expect(client.request("get home") == "ok 0")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    let warnings = daemon.stderrText.split(separator: "\n").filter { $0.contains("EVIOCGKEY") }
    #expect(warnings.count == 1, "\(warnings.count) lines")
  }

  @Test func aFloodOfBadRequestsDoesNotFloodTheJournal() throws {
    let folder = try TemporaryFolder()
    let config = try folder.write("scoreboardd.conf", Self.configuration(folder: folder))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    for index in 0..<500 {
      #expect(client.request("set visitors \(index)")?.hasPrefix("error no field") == true)
    }
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    let lines = daemon.stderrText.split(separator: "\n").filter { $0.contains("visitors") }
    #expect(lines.count <= 5, "\(lines.count) lines")
  }
}

/// A FIFO, a folder or a device where the configuration file should be: refused at once,
/// never waited on.
@Suite(.serialized) struct ConfigurationFileTypeTests {
  @Test(arguments: ["--check-config", "--config"])
  func aFIFOIsRefusedAtOnce(option: String) throws {
    let folder = try TemporaryFolder()
    let fifo = try folder.makeFIFO("scoreboardd.conf")
    let daemon = try DaemonProcess(arguments: [option, fifo], folder: folder)
    #expect(daemon.waitForExit(timeout: 5) == 78)
    #expect(
      daemon.stderrText.contains(
        "cannot read the configuration: \(fifo) is a FIFO, not a regular file"),
      "\(daemon.stderrText)")
  }

  @Test(arguments: ["/dev/null", "/tmp"])
  func aDeviceOrAFolderIsRefused(path: String) throws {
    let daemon = try DaemonProcess(arguments: ["--check-config", path])
    #expect(daemon.waitForExit(timeout: 5) == 78)
    #expect(daemon.stderrText.contains("\(path) is a"), "\(daemon.stderrText)")
  }

  @Test func aReloadOfAConfigurationReplacedByAFIFOKeepsTheRunningOne() throws {
    let folder = try TemporaryFolder()
    let config = try folder.write(
      "scoreboardd.conf", HostileInputTests.configuration(folder: folder))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("set home 4") == "ok home 4")

    unlink(config)
    try folder.makeFIFO("scoreboardd.conf")
    daemon.send(signal: SIGHUP)
    #expect(
      daemon.waitForStderr { $0.contains("reload failed; keeping the running configuration") })
    #expect(daemon.stderrText.contains("is a FIFO, not a regular file"))
    #expect(client.request("get home") == "ok 4", "the loop goes on")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}

/// A reload changes the log level of every part of the daemon, not only its own copy.
@Suite(.serialized) struct ReloadLogLevelTests {
  @Test func aReloadToDebugReachesTheControlServer() throws {
    let folder = try TemporaryFolder()
    let quiet = HostileInputTests.configuration(folder: folder)
      .replacingFirst("log-level = info", with: "log-level = warning")
    let config = try folder.write("scoreboardd.conf", quiet)
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    _ = try ControlClient(path: folder.path(of: "control")).request("get home")

    try folder.write(
      "scoreboardd.conf", quiet.replacingFirst("log-level = warning", with: "log-level = debug"))
    daemon.send(signal: SIGHUP)
    #expect(daemon.waitForStderr { $0.contains("reloaded") })
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("get home") == "ok 0")
    // The control server logs its clients at debug level.
    #expect(
      daemon.waitForStderr { $0.contains("control client 2 connected") }, "\(daemon.stderrText)")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}

extension String {
  /// The string with the first `target` replaced by `replacement`.
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = firstRange(of: target) else { return self }
    var replaced = self
    replaced.replaceSubrange(range, with: replacement)
    return replaced
  }
}
