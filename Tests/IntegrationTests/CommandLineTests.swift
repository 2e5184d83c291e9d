import TestSupport
import Testing

@Suite struct CommandLineTests {
  static let repository: String = {
    let file = #filePath
    var parts = file.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/IntegrationTests/CommandLineTests.swift
    return parts.joined(separator: "/")
  }()

  @Test(arguments: [
    "Config/demo.conf", "Config/scoreboardd.conf", "Config/examples/s7s.conf",
    "Config/examples/s7s-two-modules.conf", "Config/examples/serial-frame.conf",
    "Config/examples/serial-text.conf", "Config/examples/tm1637-buttons.conf",
    "Config/examples/max7219-matrix.conf", "Config/examples/large-digits-buttons.conf",
    "Config/examples/usb-numpad.conf", "Config/examples/basketball-fiba.conf",
    "Config/examples/basketball-nfhs.conf", "Config/examples/volleyball.conf",
    "Config/examples/ice-hockey.conf", "Config/examples/futsal.conf",
    "Config/examples/ht16k33-backpacks.conf", "Config/examples/ht16k33-names.conf",
    "Config/examples/tm1638-led-key.conf", "Config/examples/venue-court.conf",
    "Config/examples/venue-far-end.conf", "Config/examples/handball.conf",
  ])
  func shippedConfigurationsAreValid(path: String) throws {
    let daemon = try DaemonProcess(arguments: ["--check-config", Self.repository + "/" + path])
    #expect(daemon.waitForLine { $0.contains(": valid (") } != nil)
    #expect(daemon.waitForExit() == 0, "\(daemon.stderrText)")
  }

  @Test func anInvalidConfigurationExits78WithEveryError() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      "bad.conf",
      """
      [display main]
      driver = terminal
      digits = 4

      [field home]
      position = 1
      digits = ten
      colour = red
      """)
    let daemon = try DaemonProcess(arguments: ["--check-config", path], folder: folder)
    #expect(daemon.waitForExit() == 78)
    #expect(daemon.stderrText.contains("bad.conf:7: [field home] digits:"), "\(daemon.stderrText)")
    #expect(daemon.stderrText.contains("bad.conf:8: [field home] colour:"), "\(daemon.stderrText)")
  }

  @Test func aPasswordInTheBrokerURLIsNeverPrinted() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      "board.conf",
      """
      [display main]
      driver = terminal
      digits = 4

      [field home]
      position = 1
      digits = 2

      [mqtt]
      broker = mqtt://court-1:hunter2@broker.local:99999
      topic = scoreboardd/court-1
      """)
    for arguments in [["--check-config", path], ["--config", path]] {
      let daemon = try DaemonProcess(arguments: arguments, folder: folder)
      #expect(daemon.waitForLine { $0.contains("hunter2") } == nil)
      #expect(daemon.waitForExit() == 78)
      #expect(
        daemon.stderrText.contains(
          "board.conf:10: [mqtt] broker: expected no user name or password in the URL, "
            + "found \"mqtt://court-1:***@broker.local:99999\""), "\(daemon.stderrText)")
      #expect(!daemon.stderrText.contains("hunter2"), "\(daemon.stderrText)")
    }
  }

  @Test func aMissingConfigurationFileExits78() throws {
    let daemon = try DaemonProcess(arguments: ["--config", "/nonexistent/scoreboardd.conf"])
    #expect(daemon.waitForExit() == 78)
    #expect(daemon.stderrText.contains("/nonexistent/scoreboardd.conf"), "\(daemon.stderrText)")
  }

  @Test(arguments: [["--frobnicate"], ["--config"], ["--check-config", "a", "--config", "b"]])
  func usageErrorsExit64(arguments: [String]) throws {
    let daemon = try DaemonProcess(arguments: arguments)
    #expect(daemon.waitForExit() == 64)
    #expect(daemon.stderrText.contains("Try 'scoreboardd --help'"))
  }

  @Test func versionAndHelp() throws {
    let version = try DaemonProcess(arguments: ["--version"])
    #expect(version.waitForLine { $0.hasPrefix("scoreboardd ") } != nil)
    let library = version.waitForLine { $0.hasPrefix("libgpiod ") }
    #expect(library?.hasSuffix(" API)") == true)
    #if SCOREBOARDD_LIBGPIOD_V2
      #expect(library?.hasSuffix("(v2 API)") == true)
    #endif
    #expect(version.waitForLine { $0.hasPrefix("libmosquitto 2.") } != nil)
    #expect(version.waitForExit() == 0)
    let help = try DaemonProcess(arguments: ["--help"])
    #expect(help.waitForLine { $0.contains("--check-config FILE") } != nil)
    #expect(help.waitForExit() == 0)
  }
}
