@preconcurrency import Glibc
import ScoreboardMQTT
import TestSupport
import Testing

/// The shipped Mosquitto ACL (`Config/examples/mosquitto.acl`) on a real broker, with the
/// real daemons logged in as its accounts: the board publishes what it must, an operator's
/// desk and Home Assistant command it, and an account without the right can neither
/// command it nor replace the state its mirror shows. Mosquitto drops a publish it does
/// not allow without telling an MQTT 3.1.1 client, so each refusal is followed by an
/// allowed message, whose effect shows that the board or the mirror has read past the
/// refused one.
@Suite(
  .serialized,
  .enabled(
    if: MosquittoBroker.isAvailable, "needs mosquitto, mosquitto-clients and openssl (make deps)"))
struct MQTTAccessTests {
  static let base = MQTTTests.base
  static let acl = CommandLineTests.repository + "/Config/examples/mosquitto.acl"
  static let discoveryTopic = "homeassistant/device/court-1/config"

  /// A broker that allows the accounts of the shipped ACL, and `guest`, who is not in it.
  static func broker() throws -> MosquittoBroker {
    try MosquittoBroker(
      anonymous: false,
      accounts: ["court-1", "court-1-far-end", "desk", "homeassistant", "guest"], aclFile: acl)
  }

  /// `username` and `password-file` for `user`.
  static func login(_ user: String, in folder: TemporaryFolder) throws -> String {
    let path = try folder.write("mqtt-password", MosquittoBroker.password + "\n")
    chmod(path, 0o600)
    return "username = \(user)\npassword-file = \(path)"
  }

  /// Court 1 (`MQTTTests`' board, client id `court-1`) logged in as `court-1`; returns
  /// once its status, state and Home Assistant device are at the broker.
  static func startBoard(_ broker: MosquittoBroker, in folder: TemporaryFolder) throws
    -> DaemonProcess
  {
    let board = try MQTTTests.start(
      MQTTTests.configuration(
        in: folder, broker: broker.url, extra: try login("court-1", in: folder)), in: folder)
    // What the board may publish, the accounts that may read it see.
    #expect(
      try waitForRetained(broker, base + "/status", as: "desk") { $0 == "online" } != nil,
      "\(board.stderrText)")
    #expect(try waitForRetained(broker, base + "/state", as: "desk") { _ in true } != nil)
    #expect(
      try waitForRetained(broker, discoveryTopic, as: "homeassistant") {
        $0.contains("\"court-1_home\":{\"p\":\"number\"")
      } != nil)
    return board
  }

  /// Waits until the retained message on `topic`, as `user` reads it, satisfies
  /// `predicate`.
  static func waitForRetained(
    _ broker: MosquittoBroker, _ topic: String, as user: String,
    where predicate: (String) -> Bool
  ) throws -> String? {
    var found: String?
    var failure: (any Error)?
    waitUntil {
      do {
        found = try broker.retained(topic, as: user).flatMap { predicate($0) ? $0 : nil }
      } catch {
        failure = error
        return true
      }
      return found != nil
    }
    if let failure { throw failure }
    return found
  }

  /// `mosquitto_sub` as `user` on the board's reply topic and its status: the retained
  /// status arrives once both subscriptions are in place (they are made together), so
  /// what is published after it returns is heard.
  static func listenForReplies(_ broker: MosquittoBroker, as user: String) throws
    -> DaemonProcess
  {
    let replies = try broker.subscribe(
      base + "/reply", count: 10, timeout: 20, extra: ["-t", base + "/status"], as: user)
    #expect(replies.waitForLine { $0 == base + "/status online" } != nil)
    return replies
  }

  @Test func anOperatorAndHomeAssistantCommandTheBoardAndAGuestCannot() throws {
    let broker = try Self.broker()
    let folder = try TemporaryFolder()
    let board = try Self.startBoard(broker, in: folder)
    let control = try ControlClient(path: folder.path(of: "control"))
    #expect(control.request("set home 12") == "ok home 12")
    let replies = try Self.listenForReplies(broker, as: "desk")

    // The guest's command is dropped; the desk's, published after it, is carried out
    // and answered first.
    try broker.publish(Self.base + "/command", "add home +1", as: "guest")
    try broker.publish(
      Self.base + "/command", #"{"id":"guest-1","request":"add home +1"}"#, as: "guest")
    try broker.publish(Self.base + "/command", "add home +2", as: "desk")
    #expect(
      replies.waitForLine { $0.hasPrefix(Self.base + "/reply") }
        == Self.base + "/reply ok home 14")
    #expect(control.request("get home") == "ok 14")

    // Home Assistant's number sends the same lines.
    try broker.publish(Self.base + "/command", "set home 21", as: "homeassistant")
    #expect(
      replies.waitForLine { $0.hasPrefix(Self.base + "/reply") }
        == Self.base + "/reply ok home 21")
    #expect(control.request("get home") == "ok 21")
    #expect(board.waitForStderr { $0.contains("'set home 21' -> ok home 21") })
    #expect(!board.stderrText.contains("add home +1"))
    #expect(!board.stderrText.contains("guest-1"))

    // An MQTT 5 desk gets its answer on a response topic under the board's reply topic.
    let answers = try broker.subscribe(
      Self.base + "/reply/desk", count: 2, timeout: 20,
      extra: ["-V", "5", "-t", Self.base + "/status"], as: "desk")
    #expect(answers.waitForLine { $0 == Self.base + "/status online" } != nil)
    try broker.publish(
      Self.base + "/command", "add home +1",
      extra: ["-V", "5", "-D", "publish", "response-topic", Self.base + "/reply/desk"], as: "desk")
    #expect(answers.waitForLine { _ in true } == Self.base + "/reply/desk ok home 22")

    // Nor can the guest delete the board's Home Assistant device, or its state.
    try broker.publish(Self.discoveryTopic, "", extra: ["-r"], as: "guest")
    try broker.publish(Self.base + "/state", "", extra: ["-r"], as: "guest")
    #expect(
      try broker.retained(Self.discoveryTopic, as: "homeassistant")?.contains("court-1_home")
        == true)
    #expect(try broker.retained(Self.base + "/state", as: "desk")?.contains("\"value\":22") == true)
  }

  @Test func aGuestCannotReplaceTheStateAMirrorShows() throws {
    let broker = try Self.broker()
    let masterFolder = try TemporaryFolder()
    let master = try Self.startBoard(broker, in: masterFolder)
    let masterControl = try ControlClient(path: masterFolder.path(of: "control"))
    #expect(masterControl.request("set home 12") == "ok home 12")
    let published = try #require(
      try Self.waitForRetained(broker, Self.base + "/state", as: "desk") {
        $0.contains(#""home":{"shown":"12","value":12}"#)
      })

    let mirrorFolder = try TemporaryFolder()
    let mirror = try MQTTTests.start(
      Self.mirrorConfiguration(in: mirrorFolder, broker: broker.url), in: mirrorFolder)
    let mirrorControl = try ControlClient(path: mirrorFolder.path(of: "control"))
    #expect(waitUntil { mirrorControl.request("get home") == "ok 12" }, "\(mirror.stderrText)")

    // A state document as the master's, but for 77, retained: the broker keeps the
    // master's, and the mirror never shows 77.
    let forged = published.replacing(
      #""home":{"shown":"12","value":12}"#, with: #""home":{"shown":"77","value":77}"#)
    #expect(forged != published)
    try broker.publish(Self.base + "/state", forged, extra: ["-r"], as: "guest")
    #expect(try broker.retained(Self.base + "/state", as: "desk") == published)
    #expect(masterControl.request("add home +1") == "ok home 13")
    #expect(waitUntil { mirrorControl.request("get home") == "ok 13" })
    #expect(mirror.waitForStderr { $0.contains("home: 12 -> 13 (mirror of \(Self.base))") })
    // (Not "77" alone: the broker's port may have it.)
    #expect(!mirror.stderrText.contains("-> 77"))
    #expect(!master.stderrText.contains("-> 77"))
    #expect(mirrorControl.request("status")?.hasSuffix("mirror=live") == true)
    // The mirror's own status is what its account publishes.
    #expect(
      try Self.waitForRetained(broker, "scoreboardd/court-1-far-end/status", as: "desk") {
        $0 == "online"
      } != nil)
  }

  /// A mirror of court 1 (`venue-far-end.conf`'s topic), logged in as `court-1-far-end`.
  static func mirrorConfiguration(in folder: TemporaryFolder, broker: String) throws -> String {
    """
    \(ScoreboardSection.text(in: folder, logLevel: "info"))

    [display main]
    driver = terminal
    digits = 2

    [field home]
    position = 1
    digits = 2

    [mqtt]
    broker = \(broker)
    topic = scoreboardd/court-1-far-end
    mirror = \(base)
    \(try login("court-1-far-end", in: folder))
    """
  }
}
