import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
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
  /// Carries out a request from the command topic: its answer, and whether it changed
  /// what the state file keeps (its `ok` then waits for the round's save).
  typealias CarryOut = (ControlRequest, _ origin: String) -> (
    answer: ControlResponse, changesState: Bool
  )
  private let carryOut: CarryOut
  /// Runs its first argument with the saves of its steps held back, then saves once,
  /// and calls the second when that save is done: with nil when it worked (or none was
  /// needed), else with why it failed.
  var withOneSave: (() -> Void, @escaping (_ unsavedReason: String?) -> Void) -> Void = {
    body, then in
    body()
    then(nil)
  }
  /// A state document of the mirrored board arrived; false when it cannot be used.
  var mirrored: (String) -> Bool = { _ in true }
  /// The mirror's source went away or came back.
  var staleChanged: (Bool) -> Void = { _ in }
  /// Whether something more urgent than the next command waits (a key, a clock's frame):
  /// the round's other events are left for the next round.
  var urgentWorkWaits: () -> Bool = { false }

  let settings: MQTTSettings
  private let client: MQTTClient
  private let topics: Topics
  private let logger: Logger
  /// The calendar time of the state documents.
  private let clock: any TimeSource
  private(set) var isConnected = false
  /// The reason of the last failed attempt, so that a broker that stays away is logged
  /// once, not at every retry.
  private var lastFailure: String?
  private var recentCommands: RecentCommands
  /// The prefix of the ids of forwarded key actions: unique to this run of the daemon.
  private let forwardingPrefix: String
  private var forwardedCount = 0
  /// A mirror's source said `online` and sent its state.
  private var sourceIsOnline = false
  private var sourceHasState = false
  private(set) var isStale = true
  /// Connected, the state waits for the discovery message to come back.
  private var stateWaitsForDiscovery = false
  /// The discovery message came back: the state goes out at the end of the round.
  private var statePublishDue = false
  /// Home Assistant's discovery of the board, made once for each configuration (see
  /// `discoveries`).
  private var discovery: HomeAssistantDiscovery?
  private var withdrawnDiscovery: HomeAssistantDiscovery?
  /// Writes the state documents, rewriting only the fields that changed.
  private var stateWriter = StateDocumentWriter()
  /// When the state document was last published for a running clock.
  private var lastRunningPublish: Instant?
  /// Whether a change of the board waits to be published: at the round's end
  /// (`publishIfDue`, once however many steps changed it), or once `publishCredit`
  /// allows.
  private var statePending = false
  /// How much publishing the state may do at once, in nanoseconds of time: it grows
  /// with the time passing, up to `stateBurst`, and each publication spends
  /// `stateInterval`; counted at `creditCountedAt`. (Plain nanoseconds: a `Duration`'s
  /// 128-bit arithmetic on every round cost more than the rest of the check.)
  private var publishCredit = MQTTLink.stateBurst
  private var creditCountedAt: Instant?

  /// The retained state document goes out at most 50 times a second, two at once:
  /// changes 20 ms or more apart go out as they come, the rest of a burst (a flood of
  /// keys, a held key repeating) together when the credit allows, so that the broker
  /// always ends with the latest state and a burst costs the board 50 publications a
  /// second at most. In nanoseconds.
  static let stateInterval: Int64 = 20_000_000
  static let stateBurst: Int64 = stateInterval * 2

  /// The credit at `now`.
  private func credit(at now: Instant) -> Int64 {
    guard let creditCountedAt else { return Self.stateBurst }
    let elapsed = now.nanoseconds &- creditCountedAt.nanoseconds
    return elapsed >= Self.stateBurst
      ? Self.stateBurst : min(publishCredit + elapsed, Self.stateBurst)
  }

  /// How long a change held back by the credit may wait past the instant the credit
  /// allows it, for a round that runs anyway to publish it: while a burst goes on, its
  /// next change's round publishes what waits, and the loop is not woken for the
  /// publication alone (a wakeup costs as much as the publication). The last change of a
  /// burst goes out at most this much later. In nanoseconds.
  static let heldSlack: Int64 = 10_000_000

  /// When a change held back by the credit is due to go out; nil when none waits. Any
  /// round from `heldSlack` before it on publishes it (`publishIfDue`).
  var deadline: Instant? {
    guard statePending, let creditCountedAt else { return nil }
    return creditCountedAt.advanced(
      byNanoseconds: Self.stateInterval - publishCredit + Self.heldSlack)
  }

  /// The link that `settings` describe, carrying out commands with `carryOut`; nothing
  /// is sent until `start()`.
  ///
  /// - Throws: `DaemonError` (configuration) when the password file cannot be used.
  init(
    settings: MQTTSettings, spec: ScoreboardSpec, logger: Logger, clock: any TimeSource,
    recentCommands: [SavedState.CommandReply] = [], carryOut: @escaping CarryOut
  ) throws(DaemonError) {
    self.carryOut = carryOut
    self.clock = clock
    self.settings = settings
    self.logger = logger
    self.recentCommands = RecentCommands(restoring: recentCommands)
    topics = Topics(base: settings.baseTopic)
    (discovery, withdrawnDiscovery) = Self.discoveries(settings, spec: spec, topics: topics)
    forwardingPrefix = "\(settings.clientID)-\(clock.wallClockMilliseconds())"
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
      // Commands at QoS 1, on a clean session: the broker delivers each once on a
      // connection (and never again after a reconnection), and libmosquitto acknowledges
      // it as it reads it. At QoS 2, libmosquitto 2.0 counts the broker's messages in
      // flight wrongly and drops the connection within a burst of some twenty. Their
      // retain flag as published, so that a retained command is seen as one, and
      // refused, live too.
      client.subscribe(topics.command, qos: 1, retainAsPublished: true)
      if let discovery {
        client.subscribe(discovery.topic, qos: settings.qos)
        client.subscribe(settings.discoveryPrefix! + "/status", qos: settings.qos)
      } else if let withdrawnDiscovery {
        // Home Assistant is off: a device this board announced before is removed.
        client.subscribe(withdrawnDiscovery.topic, qos: settings.qos)
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

  /// The most events taken in one round of the loop: a flood of commands leaves the
  /// loop to keys, displays and the control socket between rounds.
  static let eventsPerRound = 16

  /// The ids and replies of the last commands, for the state file.
  var savedCommandReplies: [SavedState.CommandReply] {
    recentCommands.saved
  }

  /// Takes up to `eventsPerRound` of the client's events, fewer when something more
  /// urgent comes (`urgentWorkWaits`; the descriptor stays readable while more wait);
  /// `board` gives the board as it is now, for the state published on connecting. The
  /// commands among them are carried out with one save, and answered once it is done.
  func handleEvents(board: () -> (board: Scoreboard, now: Instant)) {
    var answers: [PendingAnswer] = []
    defer {
      if statePublishDue {
        statePublishDue = false
        let (board, now) = board()
        publishState(board, at: now)
      }
    }
    withOneSave(
      { takeEvents(board: board, answers: &answers) },
      { [weak self] unsavedReason in self?.send(answers, unsavedReason: unsavedReason) })
  }

  /// Takes up to `eventsPerRound` of the client's events, the first and then each while
  /// nothing more urgent waits; the commands' answers go to `answers`.
  private func takeEvents(
    board: () -> (board: Scoreboard, now: Instant), answers: inout [PendingAnswer]
  ) {
    for taken in 0..<Self.eventsPerRound {
      // A key or a clock's frame goes before the rest; the events wait in the queue.
      if taken > 0, urgentWorkWaits() {
        break
      }
      guard let event = client.nextEvent() else { break }
      switch event {
      case .connected:
        isConnected = true
        lastFailure = nil
        logger.notice("MQTT: connected to \(settings.brokerURL) as \(settings.clientID)")
        client.publish(topics.status, "online", qos: settings.qos, retain: true)
        if settings.mirror == nil {
          if discovery != nil {
            // Home Assistant first: the state goes out once the discovery message on
            // the broker (the one kept from before, or this one coming back) has been
            // read and what it has that the board no longer has removed, so that no
            // entity of a removed field reads a state without it.
            publishDiscovery()
            stateWaitsForDiscovery = true
          } else {
            let (board, now) = board()
            publishState(board, at: now)
          }
        }
        updateStale()
      case .disconnected(let reason):
        stateWaitsForDiscovery = false
        noteDisconnect(reason)
        updateStale()
      case .message(let message):
        receive(message, answers: &answers)
      case .refused(let topic, let size, _):
        logger.log(
          .warning, throttle: "mqtt oversized",
          "MQTT: a message of \(size) bytes on \(topic) is refused: the largest taken is "
            + "\(MQTTClient.maximumPayload) bytes")
      }
    }
  }

  /// Replies to the commands of a round, once its save is done (`unsavedReason`: why it
  /// failed).
  private func send(_ answers: [PendingAnswer], unsavedReason: String?) {
    for pending in answers {
      if let repeated = pending.repeatedReply {
        send(pending.command.replyPayload(repeated), to: pending.message)
        continue
      }
      var answer = pending.answer
      if pending.changesState, let unsavedReason, case .ok(let text) = answer {
        answer = .unsaved(text, reason: unsavedReason)
        if let id = pending.command.id {
          recentCommands.replace(answer.line, for: id)
        }
      }
      logger.info("MQTT: \(pending.origin): '\(pending.command.line)' -> \(answer.line)")
      send(pending.command.replyPayload(answer.line), to: pending.message)
    }
  }

  /// A command carried out whose answer waits for the round's save.
  private struct PendingAnswer {
    var message: MQTTClient.Message
    var command: CommandMessage
    var origin: String
    var answer: ControlResponse
    var changesState: Bool
    /// The first reply, for a command that came again.
    var repeatedReply: String? = nil
  }

  /// Publishes the changed board's state document (retained), if connected, at once or
  /// once the credit allows (`publishIfDue`); a board that is offline publishes it on
  /// connecting instead.
  func publish(_ board: Scoreboard, at now: Instant) {
    noteChange()
    publishIfDue(board, at: now)
  }

  /// Notes that a step changed the board: its state goes out at the round's end, or
  /// once the credit allows; a board that is offline publishes it on connecting instead.
  func noteChange() {
    statePending = isConnected
  }

  /// At the round's end, and when `deadline` comes: publishes the changed state once the
  /// credit allows.
  ///
  /// - Parameter board: Read only when the state is published: the daemon's board is
  ///   copied, every array of it retained, when it is read.
  func publishIfDue(_ board: @autoclosure () -> Scoreboard, at now: Instant) {
    guard statePending, credit(at: now) >= Self.stateInterval else { return }
    publishState(board(), at: now)
  }

  /// Publishes a changed state not yet published now: the daemon is stopping.
  func publishPending(_ board: Scoreboard, at now: Instant) {
    guard statePending else { return }
    publishState(board, at: now)
  }

  /// The state document, published now (retained), if connected.
  private func publishState(_ board: Scoreboard, at now: Instant) {
    statePending = false
    guard isConnected, settings.mirror == nil, !stateWaitsForDiscovery else { return }
    let document = stateWriter.bytes(
      of: board, at: now, wallClockMilliseconds: clock.wallClockMilliseconds())
    client.publish(topics.state, document, qos: settings.qos, retain: true)
    lastRunningPublish = now
    publishCredit = max(credit(at: now) - Self.stateInterval, 0)
    creditCountedAt = now
  }

  /// While a clock runs, the state document again once a second, at QoS 0 and not
  /// retained: Home Assistant's sensors show what the board shows (a sensor cannot run
  /// a clock from its start instant, as a mirror does); the retained document stays the
  /// one of the last change.
  ///
  /// - Parameters:
  ///   - board: Read only when the state is published (as `publishIfDue`).
  ///   - clockRuns: Whether a clock of the board runs; asked only when Home Assistant
  ///     may be told.
  func publishWhileRunning(
    _ board: @autoclosure () -> Scoreboard, clockRuns: @autoclosure () -> Bool, at now: Instant
  ) {
    guard isConnected, settings.mirror == nil, case .some = discovery, clockRuns() else {
      lastRunningPublish = nil
      return
    }
    // 0.9 s: the deadlines of whole seconds come a second apart, give or take a wakeup.
    if let last = lastRunningPublish, now.nanoseconds &- last.nanoseconds < 900_000_000 {
      return
    }
    lastRunningPublish = now
    let document = stateWriter.bytes(
      of: board(), at: now, wallClockMilliseconds: clock.wallClockMilliseconds())
    client.publish(topics.state, document, qos: 0, retain: false)
  }

  /// Sends key actions of a mirror to the board it mirrors, each with an id of its own,
  /// so that a message the broker delivers twice is carried out once.
  ///
  /// - Parameter requests: Worked out only on a mirror that forwards its keys.
  func forward(_ requests: @autoclosure () -> [ControlRequest]) {
    guard let mirror = settings.mirror, mirror.forwardsKeys else { return }
    let requests = requests()
    guard !requests.isEmpty else { return }
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
    (discovery, withdrawnDiscovery) = Self.discoveries(settings, spec: spec, topics: topics)
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

  private func receive(_ message: MQTTClient.Message, answers: inout [PendingAnswer]) {
    if let mirror = settings.mirror {
      let source = Topics(base: mirror.source)
      if message.topic == source.state {
        // Live only once a document was read and taken: an unreadable one leaves the
        // mirror stale, showing what it knew.
        sourceHasState =
          !message.payload.isEmpty && mirrored(String(decoding: message.payload, as: UTF8.self))
      } else if message.topic == source.status {
        sourceIsOnline = message.payload == Array("online".utf8)
      }
      updateStale()
      return
    }
    if message.topic == topics.command {
      guard !message.isRetained else {
        logger.log(
          .warning, throttle: "mqtt retained command",
          "MQTT: a retained message on \(topics.command) is not carried out: commands must "
            + "not be retained, or every start and reconnection would carry them out again "
            + "(whoever published it can clear it: mosquitto_pub -r -n -t \(topics.command))")
        return
      }
      answer(message, into: &answers)
    } else if let discovery, message.topic == discovery.topic {
      removeGoneComponents(seenIn: message.payload)
      if stateWaitsForDiscovery {
        stateWaitsForDiscovery = false
        statePublishDue = true
      }
    } else if let withdrawnDiscovery, message.topic == withdrawnDiscovery.topic {
      removeDevice(seenIn: message.payload)
    } else if let prefix = settings.discoveryPrefix, message.topic == prefix + "/status",
      message.payload == Array("online".utf8)
    {
      logger.info("MQTT: Home Assistant is online; announcing the board again")
      publishDiscovery()
    }
  }

  /// Carries out one command; its answer goes on the reply topic (or the sender's MQTT 5
  /// response topic), with the sender's correlation, after the round's save.
  private func answer(_ message: MQTTClient.Message, into answers: inout [PendingAnswer]) {
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
      answers.append(
        PendingAnswer(
          message: message, command: command, origin: "mqtt \(id)", answer: .error(""),
          changesState: false, repeatedReply: earlier))
      return
    }
    let origin = "mqtt" + (command.id.map { " \($0)" } ?? "")
    var answer: ControlResponse
    var changesState = false
    do {
      let request = try ControlRequest(parsing: command.line)
      switch request {
      case .watch, .help:
        answer = .error(
          "'\(request)' is for the control socket; over MQTT, subscribe to \(topics.state) "
            + "instead")
      default:
        (answer, changesState) = carryOut(request, origin)
      }
    } catch {
      answer = .error("\(error)")
    }
    if let id = command.id {
      recentCommands.remember(answer.line, for: id)
    }
    answers.append(
      PendingAnswer(
        message: message, command: command, origin: origin, answer: answer,
        changesState: changesState))
  }

  private func send(_ payload: String, to message: MQTTClient.Message) {
    client.publish(
      message.responseTopic ?? topics.reply, payload, qos: settings.qos, retain: false,
      correlation: message.correlation)
  }

  // MARK: - Home Assistant

  /// Home Assistant's discovery of a board of `spec`: the one it announces (nil when
  /// `home-assistant = no`), else the one it withdraws, at the default prefix; neither
  /// for a mirror.
  private static func discoveries(
    _ settings: MQTTSettings, spec: ScoreboardSpec, topics: Topics
  ) -> (announced: HomeAssistantDiscovery?, withdrawn: HomeAssistantDiscovery?) {
    guard settings.mirror == nil else { return (nil, nil) }
    let discovery = HomeAssistantDiscovery(
      spec: spec, clientID: settings.clientID, deviceName: settings.deviceName, topics: topics,
      qos: settings.qos, prefix: settings.discoveryPrefix ?? HomeAssistantDiscovery.defaultPrefix)
    return settings.discoveryPrefix == nil ? (nil, discovery) : (discovery, nil)
  }

  /// A discovery message of this board is on the broker though Home Assistant is off:
  /// every component it announced is removed (retained, so Home Assistant sees it
  /// whenever it starts).
  private func removeDevice(seenIn payload: [UInt8]) {
    guard let withdrawnDiscovery,
      let seen = HomeAssistantDiscovery.components(
        inPayload: String(decoding: payload, as: UTF8.self)),
      let removal = withdrawnDiscovery.payload(removingAll: seen)
    else { return }
    logger.notice(
      "MQTT: home-assistant = no: removing the device announced before from Home Assistant")
    client.publish(withdrawnDiscovery.topic, removal, qos: settings.qos, retain: true)
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
