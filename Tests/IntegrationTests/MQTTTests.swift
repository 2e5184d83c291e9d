@preconcurrency import Glibc
import ScoreboardMQTT
import TestSupport
import Testing

/// The real daemon against a real Mosquitto broker: the retained state and status, the
/// will, commands and their replies, Home Assistant discovery, refusals that name what
/// is wrong, and a broker that is away or mute.
@Suite(
  .serialized,
  .enabled(
    if: MosquittoBroker.isAvailable, "needs mosquitto, mosquitto-clients and openssl (make deps)"))
struct MQTTTests {
  static let base = "scoreboardd/court-1"

  /// A board with a score, a list field and a game clock, on the broker at `broker`.
  static func configuration(
    in folder: TemporaryFolder, broker: String, extra: String = "", fields: String? = nil
  ) -> String {
    """
    \(ScoreboardSection.text(in: folder, logLevel: "info"))

    [display main]
    driver = terminal
    digits = 9

    \(fields ?? Self.fields)

    [mqtt]
    broker = \(broker)
    topic = \(base)
    client-id = court-1
    \(extra)
    """
  }

  static let fields = """
    [field home]
    position = 1
    digits = 2
    max = 99

    [field period]
    position = 3
    values = 1 2 3 OT

    [field game]
    type = clock
    position = 5
    digits = 4
    length = 10:00
    """

  /// The broker's user and password, from a private file.
  static func credentials(in folder: TemporaryFolder, mode: mode_t = 0o600) throws -> String {
    let path = try folder.write("mqtt-password", MosquittoBroker.password + "\n")
    chmod(path, mode)
    return "username = \(MosquittoBroker.user)\npassword-file = \(path)"
  }

  static func start(_ text: String, in folder: TemporaryFolder) throws -> DaemonProcess {
    let path = try folder.write("board.conf", text)
    return try DaemonProcess(arguments: ["--config", path], folder: folder)
  }

  /// Waits until the retained message on `topic` satisfies `predicate`.
  static func waitForRetained(
    _ broker: MosquittoBroker, _ topic: String, timeout: Double = 10,
    where predicate: (String) -> Bool
  ) throws -> String? {
    var found: String?
    var failure: (any Error)?
    waitUntil(timeout: timeout) {
      do {
        found = try broker.retained(topic).flatMap { predicate($0) ? $0 : nil }
      } catch {
        failure = error
      }
      return found != nil || failure != nil
    }
    if let failure { throw failure }
    return found
  }

  @Test func publishesStateAndStatusAndAnswersCommands() throws {
    let broker = try MosquittoBroker(anonymous: false)
    let folder = try TemporaryFolder()
    let daemon = try Self.start(
      Self.configuration(
        in: folder, broker: broker.url, extra: try Self.credentials(in: folder)), in: folder)
    #expect(try Self.waitForRetained(broker, Self.base + "/status") { $0 == "online" } != nil)
    // The network and the state file have threads of their own; the state file's is
    // nicer than the loop's.
    let threads = ProcessThreads.of(daemon.pid)
    let loopNice = try #require(threads.first { $0.id == Int(daemon.pid) }).nice
    #expect(threads.filter { $0.name == "sbd-mqtt" }.map(\.nice) == [loopNice], "\(threads)")
    #expect(
      threads.filter { $0.name == "sbd-state" }.map(\.nice) == [min(loopNice + 10, 19)],
      "\(threads)")
    let first = try Self.waitForRetained(broker, Self.base + "/state") { _ in true }
    let document = try JSONValue.parse(try #require(first))
    #expect(document["fields"]?["home"]?["value"]?.intValue == 0)
    #expect(document["fields"]?["period"]?["value"]?.stringValue == "1")
    #expect(document["fields"]?["game"]?["clock"]?["time_ms"]?.intValue == 600_000)
    #expect(document["fields"]?["game"]?["clock"]?["running"]?.boolValue == false)

    let control = try ControlClient(path: folder.path(of: "control"))
    #expect(control.request("set home 7") == "ok home 7")
    #expect(
      try Self.waitForRetained(broker, Self.base + "/state") {
        $0.contains("\"home\":{\"shown\":\"7\",\"value\":7}")
      } != nil)

    // A plain command, answered on the reply topic.
    let replies = try broker.subscribe(Self.base + "/reply", count: 3, timeout: 10)
    try broker.publish(Self.base + "/command", "add home +1")
    #expect(replies.waitForLine { _ in true } == Self.base + "/reply ok home 8")
    // With an id: the same id twice is carried out once and answered twice alike.
    try broker.publish(Self.base + "/command", #"{"id":"desk-1","request":"add home +2"}"#)
    try broker.publish(Self.base + "/command", #"{"id":"desk-1","request":"add home +2"}"#)
    let reply = Self.base + #"/reply {"id":"desk-1","reply":"ok home 10"}"#
    #expect(replies.waitForLine { _ in true } == reply)
    #expect(replies.waitForLine { _ in true } == reply)
    #expect(control.request("get home") == "ok 10")

    // MQTT 5: the answer goes to the response topic, with the correlation data.
    let answers = try broker.subscribe(
      "desk/answers", timeout: 10, extra: ["-V", "5", "-F", "%t %D %p"])
    try broker.publish(
      Self.base + "/command", "set away 3",
      extra: [
        "-V", "5", "-D", "publish", "response-topic", "desk/answers", "-D", "publish",
        "correlation-data", "c42",
      ])
    let answer = answers.waitForLine { _ in true }
    #expect(answer?.hasPrefix("desk/answers c42 error no field named 'away'") == true)

    // What only the control socket can do.
    let watch = try broker.subscribe(Self.base + "/reply", timeout: 10)
    try broker.publish(Self.base + "/command", "watch")
    #expect(
      watch.waitForLine { _ in true }?.contains("error 'watch' is for the control socket") == true)
    #expect(daemon.waitForStderr { $0.contains("MQTT: mqtt desk-1: 'add home +2' -> ok home 10") })

    // The will: a daemon killed outright is `offline` at once.
    daemon.send(signal: SIGKILL)
    #expect(try Self.waitForRetained(broker, Self.base + "/status") { $0 == "offline" } != nil)
  }

  /// Without TLS the loop writes a publication to the socket itself: the network thread
  /// is not woken for it (libmosquitto's own loop would be, by a byte on its socket pair
  /// for each). At QoS 0 the broker answers nothing, so nothing wakes that thread while
  /// the state is published again and again.
  @Test func publishingDoesNotWakeTheNetworkThread() throws {
    let broker = try MosquittoBroker(anonymous: false)
    let folder = try TemporaryFolder()
    let daemon = try Self.start(
      Self.configuration(
        in: folder, broker: broker.url, extra: "qos = 0\n" + (try Self.credentials(in: folder))),
      in: folder)
    #expect(try Self.waitForRetained(broker, Self.base + "/status") { $0 == "online" } != nil)
    _ = try Self.waitForRetained(broker, Self.base + "/state") { _ in true }
    let changes = 12
    let states = try broker.subscribe(Self.base + "/state", count: changes + 1, timeout: 20)
    #expect(states.waitForLine { _ in true } != nil)
    func networkThread() -> ProcessThreads.Thread? {
      ProcessThreads.of(daemon.pid).first { $0.name == "sbd-mqtt" }
    }
    let before = try #require(networkThread())
    let control = try ControlClient(path: folder.path(of: "control"))
    for value in 1...changes {
      #expect(control.request("set home \(value)") == "ok home \(value)")
      // Each change is published on its own, and reaches a subscriber.
      let published = states.waitForLine { _ in true }
      #expect(published?.contains("\"home\":{\"shown\":\"\(value)\",\"value\":\(value)}") == true)
    }
    let after = try #require(networkThread())
    // One wakeup for the keep-alive check may fall in the run.
    #expect(
      after.voluntarySwitches - before.voluntarySwitches <= 2,
      "the network thread was woken \(after.voluntarySwitches - before.voluntarySwitches) times for \(changes) publications"
    )
  }

  /// The loop never waits for the network thread: while that thread holds the
  /// connection (reading a burst of commands), the loop leaves its publications to it,
  /// and writes its own again only once none waits. A burst's replies all arrive, in the
  /// order the commands came.
  @Test func aBurstOfCommandsIsAnsweredInOrder() throws {
    let broker = try MosquittoBroker(anonymous: false)
    let folder = try TemporaryFolder()
    let fields = """
      [field home]
      position = 1
      digits = 4
      max = 9999
      """
    let daemon = try Self.start(
      Self.configuration(
        in: folder, broker: broker.url, extra: try Self.credentials(in: folder), fields: fields),
      in: folder)
    #expect(try Self.waitForRetained(broker, Self.base + "/status") { $0 == "online" } != nil)
    let count = 400
    let replies = try broker.subscribe(Self.base + "/reply", count: count, timeout: 60)
    let commands = try folder.write(
      "commands", String(repeating: "add home +1\n", count: count))
    try broker.publishLines(Self.base + "/command", fromFile: commands)
    for value in 1...count {
      let reply = replies.waitForLine(timeout: 30) { _ in true }
      guard reply == Self.base + "/reply ok home \(value)" else {
        Issue.record("reply \(value) of \(count): \(reply ?? "none")")
        break
      }
    }
    let control = try ControlClient(path: folder.path(of: "control"))
    #expect(control.request("get home") == "ok \(count)")
    #expect(daemon.waitForStderr { $0.contains("'add home +1' -> ok home \(count)") })
  }

  @Test func stopsCleanlyWithOfflineStatus() throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let daemon = try Self.start(Self.configuration(in: folder, broker: broker.url), in: folder)
    #expect(try Self.waitForRetained(broker, Self.base + "/status") { $0 == "online" } != nil)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    #expect(try Self.waitForRetained(broker, Self.base + "/status") { $0 == "offline" } != nil)
  }

  @Test func worldReadablePasswordFileIsRefused() throws {
    let broker = try MosquittoBroker(anonymous: false)
    let folder = try TemporaryFolder()
    let text = Self.configuration(
      in: folder, broker: broker.url, extra: try Self.credentials(in: folder, mode: 0o644))
    let path = try folder.write("board.conf", text)
    let check = try DaemonProcess(arguments: ["--check-config", path])
    #expect(check.waitForExit() == 78)
    #expect(
      check.stderrText.contains(
        "[mqtt] password-file: \(folder.path(of: "mqtt-password")) can be read by other users (mode 644); make it readable by its owner only: chmod 600"
      ))
    let daemon = try DaemonProcess(arguments: ["--config", path])
    #expect(daemon.waitForExit() == 78)
  }

  @Test func checkConfigValidatesWithoutConnecting() throws {
    let folder = try TemporaryFolder()
    let text = Self.configuration(
      in: folder, broker: "mqtt://broker.invalid:1883", extra: try Self.credentials(in: folder))
    let path = try folder.write("board.conf", text)
    let check = try DaemonProcess(arguments: ["--check-config", path])
    #expect(check.waitForExit() == 0)
    #expect(
      check.waitForLine { _ in true }?.hasSuffix(
        "MQTT mqtt://broker.invalid:1883 as scoreboardd/court-1)") == true)
  }

  @Test func wrongPasswordIsLoggedAndTheBoardKeepsWorking() throws {
    let broker = try MosquittoBroker(anonymous: false)
    let folder = try TemporaryFolder()
    let passwordFile = try folder.write("mqtt-password", "wrong\n")
    chmod(passwordFile, 0o600)
    let daemon = try Self.start(
      Self.configuration(
        in: folder, broker: broker.url,
        extra: "username = \(MosquittoBroker.user)\npassword-file = \(passwordFile)"),
      in: folder)
    #expect(
      daemon.waitForStderr {
        $0.contains("MQTT: cannot connect to \(broker.url): ")
          && $0.contains("(check username and password-file in [mqtt]")
      })
    let control = try ControlClient(path: folder.path(of: "control"))
    #expect(control.request("set home 4") == "ok home 4")
    #expect(control.request("status")?.contains("mqtt=disconnected") == true)
  }

  @Test func tlsWithTheRightCAConnectsAndTheWrongOneIsRefused() throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let good = try Self.start(
      Self.configuration(in: folder, broker: broker.tlsURL, extra: "ca-file = \(broker.caFile)"),
      in: folder)
    #expect(try Self.waitForRetained(broker, Self.base + "/status") { $0 == "online" } != nil)
    #expect(
      good.waitForStderr { $0.contains("MQTT: connected to \(broker.tlsURL)") },
      "\(good.stderrText)")
    // Over TLS the network thread writes what the loop publishes.
    let control = try ControlClient(path: folder.path(of: "control"))
    for value in 1...3 {
      #expect(control.request("set home \(value)") == "ok home \(value)")
      #expect(
        try Self.waitForRetained(broker, Self.base + "/state") {
          $0.contains("\"home\":{\"shown\":\"\(value)\",\"value\":\(value)}")
        } != nil)
    }
    good.send(signal: SIGTERM)
    #expect(good.waitForExit() == 0)

    let otherFolder = try TemporaryFolder()
    let bad = try Self.start(
      Self.configuration(
        in: otherFolder, broker: broker.tlsURL, extra: "ca-file = \(broker.otherCAFile)"),
      in: otherFolder)
    #expect(
      bad.waitForStderr {
        $0.contains("MQTT: cannot connect to \(broker.tlsURL)")
          && $0.contains("certificate verify failed") && $0.contains("check ca-file")
      })
  }

  @Test func homeAssistantDiscoveryCreatesAndRemovesEntities() throws {
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let topic = "homeassistant/device/court-1/config"
    var daemon = try Self.start(Self.configuration(in: folder, broker: broker.url), in: folder)
    let payload = try #require(try Self.waitForRetained(broker, topic) { _ in true })
    let config = try JSONValue.parse(payload)
    #expect(config["avty_t"]?.stringValue == Self.base + "/status")
    #expect(config["dev"]?["ids"] != nil)
    #expect(config["o"]?["name"]?.stringValue == "scoreboardd")
    let components = try #require(config["cmps"])
    let home = try #require(components["court-1_home"])
    #expect(home["p"]?.stringValue == "number")
    #expect(home["min"]?.intValue == 0)
    #expect(home["max"]?.intValue == 99)
    #expect(components["court-1_period"]?["p"]?.stringValue == "select")
    #expect(components["court-1_game"]?["p"]?.stringValue == "sensor")
    #expect(components["court-1_undo"]?["pl_prs"]?.stringValue == "undo")

    // Home Assistant lost its retained messages and comes back: the board announces
    // itself again.
    try broker.publish(topic, "", extra: ["-r"])
    #expect(try broker.retained(topic) == nil)
    try broker.publish("homeassistant/status", "online")
    #expect(try Self.waitForRetained(broker, topic) { $0.contains("court-1_home") } != nil)

    // Home Assistant sets the score through the command topic, as its number does.
    let control = try ControlClient(path: folder.path(of: "control"))
    try broker.publish(Self.base + "/command", "set home 21")
    #expect(
      try Self.waitForRetained(broker, Self.base + "/state") { $0.contains("\"value\":21") }
        != nil)
    #expect(control.request("get home") == "ok 21")

    // The period field goes away from the configuration: so does its entity.
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    let fewer = Self.fields.replacingPeriod()
    daemon = try Self.start(
      Self.configuration(in: folder, broker: broker.url, fields: fewer), in: folder)
    let updated = try #require(
      try Self.waitForRetained(broker, topic) {
        $0.contains("\"court-1_period\":{\"p\":\"select\"}")
      })
    #expect(!updated.contains("court-1_period_"))
    #expect(try JSONValue.parse(updated)["cmps"]?["court-1_home"]?["p"]?.stringValue == "number")

    // A reload without the game clock removes its sensor and its buttons.
    let withoutClock = fewer.withoutSection("[field game]")
    _ = try folder.write(
      "board.conf", Self.configuration(in: folder, broker: broker.url, fields: withoutClock))
    daemon.send(signal: SIGHUP)
    let reloaded = try #require(
      try Self.waitForRetained(broker, topic) { $0.contains("\"court-1_game\":{\"p\":\"sensor\"}") }
    )
    #expect(reloaded.contains("\"court-1_game_start\":{\"p\":\"button\"}"))
    #expect(try JSONValue.parse(reloaded)["cmps"]?["court-1_home"]?["max"]?.intValue == 99)
  }

  @Test func aBrokerThatIsAwayOrMuteDoesNotStallTheBoard() throws {
    // Nothing listens on the broker's port at first.
    let port = try MosquittoBroker.freePort()
    let folder = try TemporaryFolder()
    let daemon = try Self.start(
      Self.configuration(in: folder, broker: "mqtt://127.0.0.1:\(port)"), in: folder)
    #expect(
      daemon.waitForStderr { $0.contains("MQTT: cannot connect to mqtt://127.0.0.1:\(port)") })
    let control = try ControlClient(path: folder.path(of: "control"))
    for value in 0..<20 {
      #expect(control.request("set home \(value)") == "ok home \(value)")
    }

    // A broker that accepts the connection and then says nothing.
    let mute = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
    defer { close(mute) }
    let mutePort = try MosquittoBroker.freePort()
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(mutePort).bigEndian
    let listening = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(mute, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(mute, 8) == 0
      }
    }
    try #require(listening)
    let muteFolder = try TemporaryFolder()
    let muted = try Self.start(
      Self.configuration(
        in: muteFolder, broker: "mqtt://127.0.0.1:\(mutePort)", extra: "keep-alive = 5s"),
      in: muteFolder)
    let mutedControl = try ControlClient(path: muteFolder.path(of: "control"))
    for value in 0..<20 {
      #expect(mutedControl.request("set home \(value)") == "ok home \(value)")
      usleep(100_000)
    }
    #expect(mutedControl.request("status")?.contains("mqtt=disconnected") == true)
    muted.send(signal: SIGTERM)
    #expect(muted.waitForExit() == 0)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  /// Whether this test may give a child a resolver of its own: root, with unshare(1).
  static var canUnshareMounts: Bool {
    guard geteuid() == 0, access("/usr/bin/unshare", X_OK) == 0,
      let probe = try? DaemonProcess(
        executable: "/usr/bin/unshare",
        arguments: ["--mount", "sh", "-c", "mount --bind /dev/null /etc/resolv.conf"])
    else { return false }
    // A root inside a chroot or a container may not mount.
    return probe.waitForExit() == 0
  }

  @Test(.enabled(if: canUnshareMounts, "needs root and unshare(1) for a private resolv.conf"))
  func aResolverThatNeverAnswersDoesNotStallTheBoard() throws {
    // A name server on a loopback address that takes every query and answers none.
    let silent = socket(AF_INET, CInt(SOCK_DGRAM.rawValue), 0)
    defer { close(silent) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.254")
    address.sin_port = UInt16(53).bigEndian
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(silent, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    try #require(bound, "cannot bind 127.0.0.254:53")
    let folder = try TemporaryFolder()
    let resolver = try folder.write(
      "resolv.conf", "nameserver 127.0.0.254\noptions timeout:4 attempts:1\n")
    let path = try folder.write(
      "board.conf",
      Self.configuration(in: folder, broker: "mqtt://broker.scoreboard-test.example:1883"))
    let daemon = try DaemonProcess(
      executable: "/usr/bin/unshare",
      arguments: [
        "--mount", "sh", "-c",
        "mount --bind \(resolver) /etc/resolv.conf && exec \(DaemonProcess.binary) --config \(path)",
      ], folder: folder)
    #expect(daemon.waitForStderr { $0.contains("MQTT: connecting to") })
    let control = try ControlClient(path: folder.path(of: "control"))
    // While the worker waits for the name, every request is answered at once.
    var slowest = 0.0
    for value in 0..<30 {
      let start = MosquittoBroker.now()
      #expect(control.request("set home \(value)") == "ok home \(value)")
      slowest = max(slowest, MosquittoBroker.now() - start)
      usleep(50_000)
    }
    #expect(slowest < 0.5, "the slowest answer took \(slowest) s")
    #expect(
      daemon.waitForStderr(timeout: 20) {
        $0.contains("MQTT: cannot connect to mqtt://broker.scoreboard-test.example:1883")
          && $0.contains("the broker's name cannot be resolved")
      })
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
  @Test(.enabled(if: canUnshareMounts, "needs root and unshare(1) for a private /etc/hosts"))
  func aBrokerNameWhoseFirstAddressRefusesIsReachedAtTheNext() throws {
    // The name's first address is ::1, where nothing listens; the broker listens on
    // 127.0.0.1 alone, as a broker on an IPv4-only host whose name also has an IPv6
    // address.
    let broker = try MosquittoBroker()
    let folder = try TemporaryFolder()
    let name = "broker.scoreboard-test.example"
    let hosts = try folder.write("hosts", "::1 \(name)\n127.0.0.1 \(name)\n")
    let url = "mqtt://\(name):\(broker.port)"
    let path = try folder.write("board.conf", Self.configuration(in: folder, broker: url))
    let daemon = try DaemonProcess(
      executable: "/usr/bin/unshare",
      arguments: [
        "--mount", "sh", "-c",
        "mount --bind \(hosts) /etc/hosts && exec \(DaemonProcess.binary) --config \(path)",
      ], folder: folder)
    #expect(
      daemon.waitForStderr { $0.contains("MQTT: connected to \(url)") }, "\(daemon.stderrText)")
    #expect(try Self.waitForRetained(broker, Self.base + "/status") { $0 == "online" } != nil)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
  @Test(.enabled(if: canUnshareMounts, "needs root and unshare(1) to hide libmosquitto"))
  func withoutLibmosquittoOnlyABoardWithMQTTIsRefused() throws {
    // libmosquitto.so.1, as the dynamic loader finds it, replaced by an empty file.
    let hide =
      "library=$(ldconfig -p | awk '$1 == \"libmosquitto.so.1\" { print $NF; exit }') && "
      + "mount --bind /dev/null \"$(readlink -f \"$library\")\" && exec \"$@\""
    func run(_ arguments: [String], in folder: TemporaryFolder) throws -> DaemonProcess {
      try DaemonProcess(
        executable: "/usr/bin/unshare",
        arguments: ["--mount", "sh", "-c", hide, "sh", DaemonProcess.binary] + arguments,
        folder: folder)
    }
    let folder = try TemporaryFolder()
    let version = try run(["--version"], in: folder)
    #expect(version.waitForLine { $0.hasPrefix("libmosquitto not loaded: ") } != nil)
    #expect(version.waitForExit() == 0)

    let mqtt = try folder.write(
      "mqtt.conf", Self.configuration(in: folder, broker: "mqtt://127.0.0.1"))
    let withMQTT = try run(["--config", mqtt], in: folder)
    #expect(withMQTT.waitForExit() == 78)
    #expect(
      withMQTT.stderrText.contains("libmosquitto cannot be loaded")
        && withMQTT.stderrText.contains("apt install libmosquitto1"), "\(withMQTT.stderrText)")
    // Checking the file says so too, and fails as the start would.
    let check = try run(["--check-config", mqtt], in: folder)
    #expect(check.waitForExit() == 78)
    #expect(
      check.stderrText.contains("[mqtt]: libmosquitto cannot be loaded")
        && check.stderrText.contains("apt install libmosquitto1"), "\(check.stderrText)")

    // A board without [mqtt] never loads it.
    let plain = try folder.write(
      "plain.conf", Self.configuration(in: folder, broker: "-").withoutSection("[mqtt]"))
    let plainCheck = try run(["--check-config", plain], in: folder)
    #expect(plainCheck.waitForLine { $0.contains(": valid (") } != nil)
    #expect(plainCheck.waitForExit() == 0, "\(plainCheck.stderrText)")
    let daemon = try run(["--config", plain], in: folder)
    #expect(daemon.waitForStderr { $0.contains("started: ") }, "\(daemon.stderrText)")
    let control = try ControlClient(path: folder.path(of: "control"))
    #expect(control.request("set home 5") == "ok home 5")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}

extension String {
  /// The test board's fields without the period.
  fileprivate func replacingPeriod() -> String {
    withoutSection("[field period]")
  }

  /// The configuration text without the section headed `header`.
  fileprivate func withoutSection(_ header: String) -> String {
    var kept: [Substring] = []
    var skipping = false
    for line in split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("[") {
        skipping = line == header
      }
      if !skipping {
        kept.append(line)
      }
    }
    return kept.joined(separator: "\n")
  }
}
