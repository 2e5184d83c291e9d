import LinuxIO
import ScoreboardCore
import ScoreboardMQTT
import ScoreboardSettings

/// The board on the venue's MQTT broker: it publishes the board's state and its
/// `online`/`offline` status, carries out requests that come on its command topic and
/// answers them, and tells Home Assistant about itself; or, on a mirror, it follows
/// another board's state and sends this board's key actions to it.
///
/// The client connects and reconnects on a thread of its own; this runs on the loop's
/// thread, woken by the client's event descriptor, and never waits for the network.
final class MQTTLink {
  /// Carries out a request from the command topic and returns the answer line.
  var carryOut: (ControlRequest, _ origin: String) -> String = { _, _ in "error not ready" }
  /// A state document of the mirrored board arrived.
  var mirrored: (String) -> Void = { _ in }
  /// The mirror's source went away or came back.
  var staleChanged: (Bool) -> Void = { _ in }

  let settings: MQTTSettings
  private let client: MQTTClient
  private let topics: Topics
  private let logger: Logger
  private var spec: ScoreboardSpec
  private(set) var isConnected = false
  /// The reason of the last failed attempt, so that a broker that stays away is logged
  /// once, not at every retry.
  private var lastFailure: String?
  private var recentCommands = RecentCommands()
  /// The prefix of the ids of forwarded key actions: unique to this run of the daemon.
  private let forwardingPrefix: String
  private var forwardedCount = 0
  /// A mirror's source said `online` and sent its state.
  private var sourceIsOnline = false
  private var sourceHasState = false
  private(set) var isStale = true

  /// The link that `settings` describe; nothing is sent until `start()`.
  ///
  /// - Throws: `DaemonError` (configuration) when the password file cannot be used.
  init(settings: MQTTSettings, spec: ScoreboardSpec, logger: Logger) throws(DaemonError) {
    self.settings = settings
    self.spec = spec
    self.logger = logger
    topics = Topics(base: settings.baseTopic)
    forwardingPrefix = "\(settings.clientID)-\(WallClock.nowMilliseconds())"
    try Self.checkFiles(settings)
    let password = try Self.password(settings)
    let options = MQTTClient.Options(
      host: settings.host, port: settings.port, clientID: settings.clientID,
      username: settings.username, password: password, usesTLS: settings.transport == .tls,
      caFile: settings.caFile, keepAliveSeconds: settings.keepAliveSeconds,
      will: (topics.status, "offline", 1))
    do {
      client = try MQTTClient(options)
    } catch {
      throw DaemonError("[mqtt]: \(error)", exitCode: .configuration)
    }
    if let mirror = settings.mirror {
      let source = Topics(base: mirror.source)
      client.subscribe(source.state, qos: settings.qos)
      client.subscribe(source.status, qos: settings.qos)
    } else {
      // Commands at QoS 2: the broker delivers each exactly once.
      client.subscribe(topics.command, qos: 2)
      if let discovery {
        client.subscribe(discovery.topic, qos: settings.qos)
        client.subscribe(settings.discoveryPrefix! + "/status", qos: settings.qos)
      }
    }
  }

  /// Reads the password file of `settings`, refusing one that others can read.
  static func password(_ settings: MQTTSettings) throws(DaemonError) -> String? {
    guard let path = settings.passwordFile else { return nil }
    do {
      return try SecretFile.firstLine(of: path)
    } catch {
      throw DaemonError("[mqtt] password-file: \(error)", exitCode: .configuration)
    }
  }

  /// Checks the files `settings` name without connecting: the password file is private,
  /// the CA file holds certificates.
  static func checkFiles(_ settings: MQTTSettings) throws(DaemonError) {
    _ = try password(settings)
    guard let path = settings.caFile else { return }
    let text: String
    do {
      text = String(
        decoding: try FileDescriptor.readRegularFile(path, limit: 1 << 20), as: UTF8.self)
    } catch {
      throw DaemonError("[mqtt] ca-file: cannot read it: \(error)", exitCode: .configuration)
    }
    guard text.contains("-----BEGIN CERTIFICATE-----") else {
      throw DaemonError(
        "[mqtt] ca-file: \(path) holds no certificate (expected PEM text, "
          + "-----BEGIN CERTIFICATE----- ...)", exitCode: .configuration)
    }
  }

  /// The descriptor the loop watches for the client's events.
  var eventDescriptor: FileDescriptor {
    FileDescriptor(rawValue: client.eventDescriptor)
  }

  /// Starts connecting, in the background.
  func start() throws(DaemonError) {
    if let refusal = NetworkAccess.refusal() {
      logger.error(
        "MQTT: cannot open a network socket (\(refusal)): \(Self.networkAdvice)")
    }
    do {
      try client.start()
    } catch {
      throw DaemonError("[mqtt]: \(error)", exitCode: .software)
    }
    logger.info("MQTT: connecting to \(settings.brokerURL) as \(settings.clientID)")
  }

  /// Disconnects; the broker publishes `offline` for this board.
  func close() {
    client.stop()
  }

  /// Takes the client's events; `board` gives the board as it is now, for the state
  /// published on connecting.
  func handleEvents(board: () -> (board: Scoreboard, now: Instant)) {
    while let event = client.nextEvent() {
      switch event {
      case .connected:
        isConnected = true
        lastFailure = nil
        logger.notice("MQTT: connected to \(settings.brokerURL) as \(settings.clientID)")
        client.publish(topics.status, "online", qos: settings.qos, retain: true)
        if settings.mirror == nil {
          let (board, now) = board()
          publish(board, at: now)
          publishDiscovery()
        }
        updateStale()
      case .disconnected(let reason):
        noteDisconnect(reason)
        updateStale()
      case .message(let message):
        receive(message)
      }
    }
  }

  /// Publishes the board's state document (retained), if connected; a board that is
  /// offline publishes it on connecting instead.
  func publish(_ board: Scoreboard, at now: Instant) {
    guard isConnected, settings.mirror == nil else { return }
    let document = StateDocument.json(
      of: board, at: now, wallClockMilliseconds: WallClock.nowMilliseconds())
    client.publish(topics.state, document, qos: settings.qos, retain: true)
  }

  /// Sends key actions of a mirror to the board it mirrors, each with an id of its own,
  /// so that a message the broker delivers twice is carried out once.
  func forward(_ requests: [ControlRequest]) {
    guard let mirror = settings.mirror, mirror.forwardsKeys, !requests.isEmpty else { return }
    guard isConnected else {
      logger.log(
        .warning, throttle: "mqtt forward",
        "MQTT: not connected; key actions for \(mirror.source) are not sent: "
          + requests.map(\.description).joined(separator: ", "))
      return
    }
    for request in requests {
      forwardedCount += 1
      let id = "\(forwardingPrefix)-\(forwardedCount)"
      let payload =
        "{\"id\":\(JSONText.string(id)),\"request\":\(JSONText.string(request.description))}"
      client.publish(Topics(base: mirror.source).command, payload, qos: 1, retain: false)
      logger.info("MQTT: sent '\(request)' to \(mirror.source)")
    }
  }

  /// Takes a new configuration's fields: Home Assistant is told at once.
  func reconfigure(_ spec: ScoreboardSpec) {
    let before = discovery?.componentKeys ?? [:]
    self.spec = spec
    guard isConnected, let discovery else { return }
    let gone = discovery.removals(since: before)
    if !gone.isEmpty {
      logger.notice(
        "MQTT: removing from Home Assistant what is no longer configured: "
          + gone.map(\.key).joined(separator: ", "))
    }
    publishDiscovery(removing: gone)
  }

  // MARK: - Receiving

  private func receive(_ message: MQTTClient.Message) {
    if let mirror = settings.mirror {
      let source = Topics(base: mirror.source)
      if message.topic == source.state {
        sourceHasState = !message.payload.isEmpty
        if sourceHasState {
          mirrored(String(decoding: message.payload, as: UTF8.self))
        }
      } else if message.topic == source.status {
        sourceIsOnline = message.payload == Array("online".utf8)
      }
      updateStale()
      return
    }
    if message.topic == topics.command {
      answer(message)
    } else if let discovery, message.topic == discovery.topic {
      removeGoneComponents(seenIn: message.payload)
    } else if let prefix = settings.discoveryPrefix, message.topic == prefix + "/status",
      message.payload == Array("online".utf8)
    {
      logger.info("MQTT: Home Assistant is online; announcing the board again")
      publishDiscovery()
    }
  }

  /// Carries out one command and answers it on the reply topic (or the sender's MQTT 5
  /// response topic), with the sender's correlation.
  private func answer(_ message: MQTTClient.Message) {
    let reply: String
    let command: CommandMessage
    do {
      command = try CommandMessage(
        payload: message.payload, correlationData: message.correlation)
    } catch {
      logger.log(.warning, throttle: "mqtt command", "MQTT: command refused: \(error)")
      send("error \(error)", to: message)
      return
    }
    if let id = command.id, let earlier = recentCommands.reply(to: id) {
      logger.info("MQTT: command \(id) came again; answered again, not carried out again")
      send(command.replyPayload(earlier), to: message)
      return
    }
    let origin = "mqtt" + (command.id.map { " \($0)" } ?? "")
    do {
      let request = try ControlRequest(parsing: command.line)
      switch request {
      case .watch, .help:
        reply =
          "error '\(request)' is for the control socket; over MQTT, subscribe to "
          + "\(topics.state) instead"
      default:
        reply = carryOut(request, origin)
      }
    } catch {
      reply = "error \(error)"
    }
    logger.info("MQTT: \(origin): '\(command.line)' -> \(reply)")
    if let id = command.id {
      recentCommands.remember(reply, for: id)
    }
    send(command.replyPayload(reply), to: message)
  }

  private func send(_ payload: String, to message: MQTTClient.Message) {
    client.publish(
      message.responseTopic ?? topics.reply, payload, qos: settings.qos, retain: false,
      correlation: message.correlation)
  }

  // MARK: - Home Assistant

  private var discovery: HomeAssistantDiscovery? {
    guard settings.mirror == nil, let prefix = settings.discoveryPrefix else { return nil }
    return HomeAssistantDiscovery(
      spec: spec, clientID: settings.clientID, deviceName: settings.deviceName, topics: topics,
      qos: settings.qos, prefix: prefix)
  }

  private func publishDiscovery(removing removed: [(key: String, platform: String)] = []) {
    guard let discovery else { return }
    client.publish(
      discovery.topic, discovery.payload(removing: removed), qos: settings.qos, retain: true)
  }

  /// A discovery message is back from the broker (the one kept from the last start, or
  /// this one's own): components it has that the board no longer has are removed.
  private func removeGoneComponents(seenIn payload: [UInt8]) {
    guard let discovery,
      let seen = HomeAssistantDiscovery.components(
        inPayload: String(decoding: payload, as: UTF8.self))
    else { return }
    let gone = discovery.removals(since: seen)
    guard !gone.isEmpty else { return }
    logger.notice(
      "MQTT: removing from Home Assistant what is no longer configured: "
        + gone.map(\.key).joined(separator: ", "))
    publishDiscovery(removing: gone)
  }

  // MARK: - Connection and staleness

  private func noteDisconnect(_ reason: String) {
    let wasConnected = isConnected
    isConnected = false
    let advice = Self.advice(for: reason)
    if wasConnected {
      logger.warning(
        "MQTT: connection to \(settings.brokerURL) lost: \(reason); reconnecting")
    } else if reason != lastFailure {
      logger.warning(
        "MQTT: cannot connect to \(settings.brokerURL): \(reason)\(advice); trying again, "
          + "with growing pauses")
    } else {
      logger.debug("MQTT: cannot connect to \(settings.brokerURL): \(reason)")
    }
    lastFailure = reason
  }

  /// How to give the service the network, for a unit without it.
  static let networkAdvice =
    "the service has no network; give it the network with: sudo mkdir -p "
    + "/etc/systemd/system/scoreboardd.service.d && sudo ln -sf "
    + "/usr/share/scoreboardd/mqtt-network.conf /etc/systemd/system/scoreboardd.service.d/ "
    + "&& sudo systemctl daemon-reload && sudo systemctl restart scoreboardd (after make "
    + "install, the file is in /usr/local/share/scoreboardd; scoreboardd(8), MQTT)"

  /// What to check for a failure `reason`, or nothing.
  static func advice(for reason: String) -> String {
    let lowered = reason.lowercased()
    if lowered.contains("user name or password") || lowered.contains("not authorized") {
      return " (check username and password-file in [mqtt], and the broker's password file)"
    }
    if lowered.contains("certificate") || lowered.contains("tls") || lowered.contains("ssl") {
      return " (check ca-file in [mqtt]: it must hold the CA that signed the broker's "
        + "certificate, and the broker's certificate must name the host of broker =)"
    }
    if lowered.contains("address family") || lowered.contains("operation not permitted") {
      return " (" + networkAdvice + ")"
    }
    if lowered.contains("refused") {
      return " (is the broker running, and listening on that port?)"
    }
    if lowered.contains("lookup") {
      return " (the broker's name cannot be resolved)"
    }
    return ""
  }

  private func updateStale() {
    guard let mirror = settings.mirror else { return }
    let stale = !(isConnected && sourceIsOnline && sourceHasState)
    guard stale != isStale else { return }
    isStale = stale
    if stale {
      let why =
        !isConnected
        ? "the broker is unreachable"
        : !sourceIsOnline ? "\(mirror.source) is offline" : "\(mirror.source) has no state yet"
      logger.warning("mirror: \(why); showing the last known state (stale)")
    } else {
      logger.notice("mirror: following \(mirror.source)")
    }
    staleChanged(stale)
  }
}
