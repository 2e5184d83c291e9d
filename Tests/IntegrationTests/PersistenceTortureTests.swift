@preconcurrency import Glibc
import TestSupport
import Testing

/// The scores survive `kill -9` at any moment: a loop commits changes through the
/// control socket and kills the daemon at random points, hundreds of times.
@Suite(.serialized) struct PersistenceTortureTests {
  static func configuration(folder: TemporaryFolder) -> String {
    """
    \(ScoreboardSection.text(in: folder, logLevel: "warning"))

    [display main]
    driver = terminal
    digits = 4

    [field home]
    position = 1
    digits = 4
    """
  }

  @Test func everyAcknowledgedValueSurvivesSIGKILL() throws {
    let kills = 200
    let folder = try TemporaryFolder()
    let path = try folder.write("torture.conf", Self.configuration(folder: folder))

    var generator = SeededRandom.forTest("persistence torture")
    var lastSent = 0
    var lastAcknowledged = 0
    var acknowledgedWrites = 0
    var losses = 0
    for _ in 1...kills {
      let daemon = try DaemonProcess(arguments: ["--config", path], folder: folder)
      let client = try ControlClient(path: folder.path(of: "control"))
      let answer = try #require(client.request("get home"), "\(daemon.stderrText)")
      let restored = Int(answer.dropFirst("ok ".count)) ?? -1
      if restored < lastAcknowledged || restored > lastSent {
        losses += 1
        Issue.record("restored \(restored), acknowledged \(lastAcknowledged), sent \(lastSent)")
      }
      lastSent = max(lastSent, restored)
      lastAcknowledged = max(lastAcknowledged, restored)

      for _ in 0..<Int.random(in: 0...6, using: &generator) {
        lastSent += 1
        guard client.request("set home \(lastSent)") == "ok home \(lastSent)" else { break }
        lastAcknowledged = lastSent
        acknowledgedWrites += 1
      }
      // One more change in flight, and the kill at a random moment around it: the pause
      // is the scenario (where the kill lands), not a wait for anything.
      lastSent += 1
      _ = client.send("set home \(lastSent)")
      usleep(UInt32.random(in: 0...3_000, using: &generator))
      daemon.send(signal: SIGKILL)
      #expect(daemon.waitForExit() == 128 + SIGKILL)
    }
    let corrupt = folder.names().filter { $0.contains(".corrupt-") }
    #expect(corrupt.isEmpty, "no state file was ever found damaged")
    print(
      "persistence torture: \(kills) kills, \(acknowledgedWrites) acknowledged writes, "
        + "\(losses) losses")
    #expect(losses == 0)
  }
}
