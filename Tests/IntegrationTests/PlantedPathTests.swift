@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// Paths another local user could plant or redirect: the daemon (as root here) never
/// writes through them, and says which path and whose it is. The plants are made by an
/// unprivileged user, `nobody`, with `setpriv`.
@Suite(.serialized) struct PlantedPathTests {
  static let nobody: uid_t = 65534

  static var canActAsNobody: Bool {
    geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0
  }

  static func configuration(stateFile: String, controlSocket: String) -> String {
    """
    [scoreboard]
    state-file = \(stateFile)
    control-socket = \(controlSocket)

    [display main]
    driver = terminal
    digits = 2

    [field home]
    position = 1
    digits = 2
    """
  }

  /// Runs `command` as the user nobody; its exit status.
  @discardableResult
  static func asNobody(_ command: String...) throws -> CInt? {
    let process = try DaemonProcess(
      executable: "/usr/bin/setpriv",
      arguments: ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"] + command)
    return process.waitForExit()
  }

  /// A folder where everybody may create entries, as /tmp (mode 1777), that nobody can
  /// reach, and a file only root may read and write.
  static func sharedFolder() throws -> (TemporaryFolder, shared: String, secret: String) {
    let folder = try TemporaryFolder()
    chmod(folder.path, 0o755)
    let shared = try folder.makeFolder("shared", mode: 0o1777)
    let secret = try folder.write("secret", "root only\n")
    chmod(secret, 0o600)
    return (folder, shared, secret)
  }

  @Test(.enabled(if: canActAsNobody, "needs root and setpriv"))
  func aStateFolderLinkedByAnotherUserIsRefused() throws {
    let (folder, shared, _) = try Self.sharedFolder()
    let target = try folder.makeFolder("root-only")
    try Self.asNobody("/bin/ln", "-s", target, shared + "/scores")
    let config = try folder.write(
      "scoreboardd.conf",
      Self.configuration(stateFile: shared + "/scores/state", controlSocket: "none"))

    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    #expect(daemon.waitForExit() == 78)
    #expect(
      daemon.stderrText.contains(
        "\(shared)/scores is a symbolic link owned by user 'nobody' (uid 65534)"),
      "\(daemon.stderrText)")
    #expect(folder.names(in: "root-only").isEmpty, "nothing was written through the link")
  }

  @Test(.enabled(if: canActAsNobody, "needs root and setpriv"))
  func aStateFileInAFolderEveryoneMayWriteToIsRefused() throws {
    let (folder, shared, secret) = try Self.sharedFolder()
    // The old daemon wrote through `.state.tmp-PID` without O_EXCL|O_NOFOLLOW: links at
    // every name it might pick lead to the secret file.
    for pid in 2..<50 {
      try Self.asNobody("/bin/ln", "-sf", secret, "\(shared)/.state.tmp-\(pid)")
    }
    let config = try folder.write(
      "scoreboardd.conf",
      Self.configuration(stateFile: shared + "/state", controlSocket: "none"))

    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    #expect(daemon.waitForExit() == 78)
    #expect(
      daemon.stderrText.contains("\(shared) may be written to by other users (mode 01777)"),
      "\(daemon.stderrText)")
    #expect(folder.read("secret") == "root only\n")
  }

  @Test(.enabled(if: canActAsNobody, "needs root and setpriv"))
  func aStateFolderOfAnotherUserIsRefused() throws {
    let folder = try TemporaryFolder()
    let theirs = try folder.makeFolder("theirs")
    chown(theirs, Self.nobody, Self.nobody)
    let config = try folder.write(
      "scoreboardd.conf",
      Self.configuration(stateFile: theirs + "/state", controlSocket: "none"))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    #expect(daemon.waitForExit() == 78)
    #expect(
      daemon.stderrText.contains("\(theirs) belongs to user 'nobody' (uid 65534)"),
      "\(daemon.stderrText)")
  }

  @Test(.enabled(if: canActAsNobody, "needs root and setpriv"))
  func aControlSocketFolderEveryoneMayWriteToIsRefused() throws {
    let (folder, shared, _) = try Self.sharedFolder()
    let config = try folder.write(
      "scoreboardd.conf",
      Self.configuration(stateFile: "none", controlSocket: shared + "/control"))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    #expect(daemon.waitForExit() == 78)
    #expect(
      daemon.stderrText.contains("control socket \(shared)/control: \(shared) may be written"))
  }

  @Test(
    .enabled(if: canActAsNobody, "needs root and setpriv"),
    .enabled(if: access("/usr/bin/python3", X_OK) == 0, "needs python3 to listen as nobody"))
  func aSocketOfAnotherUserAtTheControlPathIsRefused() throws {
    let folder = try TemporaryFolder()
    chmod(folder.path, 0o755)
    let theirs = try folder.makeFolder("run", mode: 0o777)
    // nobody listens at the path first, with a socket of its own; the listener sleeps
    // only to stay alive (at most 30 s) until the test ends and kills it.
    let listener = try DaemonProcess(
      executable: "/usr/bin/setpriv",
      arguments: [
        "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "--",
        "/usr/bin/python3", "-c",
        "import socket,time; s=socket.socket(socket.AF_UNIX); s.bind('\(theirs)/control'); "
          + "s.listen(); print('listening', flush=True); time.sleep(30)",
      ], folder: folder)
    #expect(listener.waitForLine { $0 == "listening" } != nil, "\(listener.stderrText)")
    chmod(theirs, 0o700)
    let config = try folder.write(
      "scoreboardd.conf",
      Self.configuration(stateFile: "none", controlSocket: theirs + "/control"))

    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    #expect(daemon.waitForExit() == 69)
    #expect(
      daemon.stderrText.contains(
        "\(theirs)/control is a socket of user 'nobody' (uid 65534); it is never removed"),
      "\(daemon.stderrText)")
    #expect(FileSystem.paths(matching: theirs + "/control") == [theirs + "/control"])
  }
}

/// One scoreboardd per control socket, as the protocol document says.
@Suite(.serialized) struct OneDaemonPerSocketTests {
  static func configuration(folder: TemporaryFolder) -> String {
    PlantedPathTests.configuration(
      stateFile: folder.path(of: "state"), controlSocket: folder.path(of: "control"))
  }

  @Test func aSecondDaemonOnALiveSocketExits69() throws {
    let folder = try TemporaryFolder()
    let config = try folder.write("scoreboardd.conf", Self.configuration(folder: folder))
    let first = try DaemonProcess(arguments: ["--config", config], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("set home 3") == "ok home 3")

    let second = try DaemonProcess(arguments: ["--config", config], folder: folder)
    #expect(second.waitForExit() == 69)
    #expect(second.stderrText.contains("another scoreboardd is running"), "\(second.stderrText)")
    #expect(client.request("get home") == "ok 3", "the first one still answers")
    let again = try ControlClient(path: folder.path(of: "control"))
    #expect(again.request("get home") == "ok 3", "and its socket is still in place")
    first.send(signal: SIGTERM)
    #expect(first.waitForExit() == 0)
  }

  @Test func aStaleSocketIsReplaced() throws {
    let folder = try TemporaryFolder()
    let config = try folder.write("scoreboardd.conf", Self.configuration(folder: folder))
    let first = try DaemonProcess(arguments: ["--config", config], folder: folder)
    _ = try ControlClient(path: folder.path(of: "control"))
    first.send(signal: SIGKILL)
    _ = first.waitForExit()
    #expect(folder.names().contains("control"), "a killed daemon leaves its socket")

    let second = try DaemonProcess(arguments: ["--config", config], folder: folder)
    let client = try ControlClient(path: folder.path(of: "control"))
    #expect(client.request("get home") == "ok 0", "\(second.stderrText)")
    second.send(signal: SIGTERM)
    #expect(second.waitForExit() == 0)
  }

  @Test func aFileAtTheSocketPathIsNeverRemoved() throws {
    let folder = try TemporaryFolder()
    try folder.write("control", "not a socket\n")
    let config = try folder.write("scoreboardd.conf", Self.configuration(folder: folder))
    let daemon = try DaemonProcess(arguments: ["--config", config], folder: folder)
    #expect(daemon.waitForExit() == 69)
    #expect(daemon.stderrText.contains("is a regular file, not a socket"), "\(daemon.stderrText)")
    #expect(folder.read("control") == "not a socket\n")
  }
}
