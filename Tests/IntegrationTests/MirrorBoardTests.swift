@preconcurrency import Glibc
import TestSupport
import Testing

/// Two daemons and one broker: a master board and a mirror whose S7S module (on a
/// pseudo-terminal, decoded from its bytes) follows the master, runs its clock from the
/// published start, says when it is stale, and sends its own changes to the master.
@Suite(
  .serialized,
  .enabled(
    if: MosquittoBroker.isAvailable, "needs mosquitto, mosquitto-clients and openssl (make deps)"))
struct MirrorBoardTests {
  static func mirrorConfiguration(
    in folder: TemporaryFolder, port: String, broker: String, extra: String
  ) -> String {
    """
    \(ScoreboardSection.text(in: folder, logLevel: "info"))

    [display main]
    driver = s7s
    port = \(port)

    [display clock]
    driver = terminal
    digits = 4

    [field home]
    display = main
    position = 3
    digits = 2

    [field game]
    type = clock
    display = clock
    position = 1
    digits = 4
    length = 10:00

    [mqtt]
    broker = \(broker)
    topic = scoreboardd/court-1-end
    mirror = \(MQTTTests.base)
    \(extra)
    """
  }

  @Test func theMirrorFollowsTheMasterAndSaysWhenItIsStale() throws {
    let broker = try MosquittoBroker()
    let masterFolder = try TemporaryFolder()
    var master = try MQTTTests.start(
      MQTTTests.configuration(in: masterFolder, broker: broker.url), in: masterFolder)
    let masterControl = try ControlClient(path: masterFolder.path(of: "control"))
    #expect(masterControl.request("set home 12") == "ok home 12")

    let mirrorFolder = try TemporaryFolder()
    let module = try SerialScoreboardTests.SerialModule(in: mirrorFolder)
    let mirror = try MQTTTests.start(
      Self.mirrorConfiguration(
        in: mirrorFolder, port: module.link, broker: broker.url, extra: "when-stale = dashes"),
      in: mirrorFolder)
    #expect(module.waitUntilShowing("  12"))
    let mirrorControl = try ControlClient(path: mirrorFolder.path(of: "control"))

    #expect(masterControl.request("add home +1") == "ok home 13")
    #expect(module.waitUntilShowing("  13"))

    // The clock runs on the mirror from the start the master published.
    #expect(masterControl.request("start game")?.hasPrefix("ok game 10:00") == true)
    #expect(mirror.waitForStderr { $0.contains("game: started at 10:00.0 (mirror of") })
    // Until the mirror's own clock has counted down two seconds, within a deadline.
    var running: String?
    #expect(
      waitUntil {
        running = mirrorControl.request("get game")
        return running?.hasPrefix("ok 9:58") == true
      }, "\(running ?? "no answer")")
    #expect(masterControl.request("stop game")?.hasPrefix("ok game") == true)

    // The master goes away: the mirror says so, and shows dashes.
    master.send(signal: SIGKILL)
    _ = master.waitForExit()
    #expect(module.waitUntilShowing("  --"))
    #expect(mirror.waitForStderr { $0.contains("mirror: \(MQTTTests.base) is offline") })
    #expect(mirrorControl.request("status")?.hasSuffix("mqtt=connected mirror=stale") == true)

    // It comes back: the mirror follows it again.
    master = try MQTTTests.start(
      MQTTTests.configuration(in: masterFolder, broker: broker.url), in: masterFolder)
    #expect(module.waitUntilShowing("  13"))
    #expect(mirrorControl.request("status")?.hasSuffix("mqtt=connected mirror=live") == true)
    master.send(signal: SIGTERM)
    #expect(master.waitForExit() == 0)
  }

  @Test func aSecondDeskSendsItsChangesToTheMaster() throws {
    let broker = try MosquittoBroker()
    let masterFolder = try TemporaryFolder()
    let master = try MQTTTests.start(
      MQTTTests.configuration(in: masterFolder, broker: broker.url), in: masterFolder)
    let masterControl = try ControlClient(path: masterFolder.path(of: "control"))
    let mirrorFolder = try TemporaryFolder()
    let module = try SerialScoreboardTests.SerialModule(in: mirrorFolder)
    let mirror = try MQTTTests.start(
      Self.mirrorConfiguration(
        in: mirrorFolder, port: module.link, broker: broker.url, extra: "forward-keys = yes"),
      in: mirrorFolder)
    #expect(module.waitUntilShowing("   0"))
    #expect(mirror.waitForStderr { $0.contains("mirror: following \(MQTTTests.base)") })
    let mirrorControl = try ControlClient(path: mirrorFolder.path(of: "control"))
    #expect(mirrorControl.request("set home 5") == "ok home 5")
    #expect(waitUntil { masterControl.request("get home") == "ok 5" })
    #expect(master.waitForStderr { $0.contains("home: 0 -> 5 (mqtt scoreboardd-court-1-end-") })
    #expect(module.waitUntilShowing("   5"))
  }
}
