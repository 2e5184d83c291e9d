@preconcurrency import Glibc
import TestSupport
import Testing

/// What systemd and watchers hear when the state file starts failing, and when it works
/// again.
@Suite(.serialized) struct StateFileStatusTests {
  @Test(.enabled(if: TemporaryMount.isAvailable, "needs root to mount a tmpfs"))
  func statusAndWatchersSayTheScoresAreNotSaved() throws {
    let folder = try TemporaryFolder()
    let diskFolder = try folder.makeFolder("disk")
    let disk = try TemporaryMount(at: diskFolder, kilobytes: 64)
    let config = try folder.write(
      "scoreboardd.conf",
      StateFileFaultTests.configuration(stateFolder: diskFolder, controlFolder: folder.path))
    let receiver = try NotifyReceiver(folder: folder.path)
    let daemon = try DaemonProcess(
      arguments: ["--config", config], environment: ["NOTIFY_SOCKET": receiver.path])
    #expect(receiver.waitFor("READY=1") != nil, "\(daemon.stderrText)")
    let watcher = try ControlClient(path: folder.path(of: "control"))
    #expect(watcher.request("watch") == "ok watching")
    let client = try ControlClient(path: folder.path(of: "control"))

    try disk.setReadOnly(true)
    #expect(client.request("set home 3")?.hasPrefix("unsaved home 3; not saved: ") == true)
    let status = try #require(receiver.waitFor("STATUS=home 3, 1 display, 0 keypads; NOT SAVED"))
    #expect(status.contains { $0.contains("Read-only file system (EROFS)") }, "\(status)")
    // The change, and the failing of a write on the store's thread: that of the change,
    // after it, or one that was under way when the disk turned read-only, before it.
    let events = [watcher.readLine(), watcher.readLine()]
    #expect(Set(events) == ["event value home 3", "event state-file failing"], "\(events)")

    try disk.setReadOnly(false)
    #expect(client.request("set home 4") == "ok home 4")
    // The change, and the first write that succeeds: that of the change, after it, or
    // the retry of home 3 (a second after the failure), before it on a slow machine.
    let recovered = [watcher.readLine(), watcher.readLine()]
    #expect(
      Set(recovered) == ["event value home 4", "event state-file saved"], "\(recovered)")
    #expect(receiver.waitFor("STATUS=home 4, 1 display, 0 keypads") != nil)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
