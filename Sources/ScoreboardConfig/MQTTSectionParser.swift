import ScoreboardSettings

/// Reads the `[mqtt]` section: the broker's URL, the client id and base topic, the
/// credentials and CA files, keep-alive and QoS, Home Assistant discovery, and the board
/// this one mirrors. Files are named here; the daemon reads them (and refuses a password
/// file that others can read) when it checks or starts.
enum MQTTSectionParser {
  static let keys = [
    "broker", "client-id", "topic", "username", "password-file", "ca-file", "keep-alive", "qos",
    "home-assistant", "discovery-prefix", "device-name", "mirror", "when-stale", "forward-keys",
  ]

  /// The settings, or nil when something in the section is wrong.
  static func parse(_ reader: inout SectionReader) -> MQTTSettings? {
    reader.reportUnknownKeys(known: keys)
    reader.require("broker", "topic")
    let broker = reader.entry("broker").flatMap { entry in
      parseBroker(entry.value, report: { reader.report($0, key: "broker") })
    }
    let topic = reader.entry("topic").flatMap { entry in
      checkedTopic(entry.value, report: { reader.report($0, key: "topic") })
    }
    var clientID = reader.entry("client-id").map(\.value)
    if let id = clientID, let problem = clientIDProblem(id) {
      reader.report(problem, key: "client-id")
      clientID = nil
    }
    let username = reader.text("username", expected: "a user name")
    let passwordFile = reader.path("password-file", example: "/etc/scoreboardd/mqtt-password")
    if passwordFile != nil && username == nil && reader.entry("username") == nil {
      reader.report("needs a username as well", key: "password-file")
    }
    let caFile = reader.path("ca-file", example: "/etc/scoreboardd/venue-ca.crt")
    if caFile != nil, let broker, broker.transport == .plain {
      reader.report("applies only to an mqtts:// broker (TLS)", key: "ca-file")
    }
    let keepAlive = reader.duration("keep-alive", in: .seconds(5)...(.seconds(3600)))
    let qos = reader.integer("qos", among: [0, 1, 2], expected: "a quality of service: ")
    let discovery = reader.boolean("home-assistant") ?? true
    var prefix = reader.entry("discovery-prefix").flatMap { entry in
      checkedTopic(entry.value, report: { reader.report($0, key: "discovery-prefix") })
    }
    if !discovery, reader.entry("discovery-prefix") != nil {
      reader.report("applies only with home-assistant = yes", key: "discovery-prefix")
    }
    prefix = discovery ? prefix ?? "homeassistant" : nil
    let deviceName = reader.text("device-name", expected: "a name such as Court 1")
    let mirror = parseMirror(&reader)
    if let mirror, let topic, mirror.source == topic {
      reader.report(
        "is this board's own topic; a mirror follows another board's topic", key: "mirror")
    }
    guard !reader.hasErrors, let broker, let topic else { return nil }
    return MQTTSettings(
      transport: broker.transport, host: broker.host, port: broker.port,
      clientID: clientID ?? defaultClientID(topic: topic), baseTopic: topic, username: username,
      passwordFile: passwordFile, caFile: caFile,
      keepAliveSeconds: Int(keepAlive?.components.seconds ?? 30), qos: qos ?? 1,
      discoveryPrefix: prefix, deviceName: deviceName, mirror: mirror)
  }

  private static func parseMirror(_ reader: inout SectionReader) -> MQTTSettings.Mirror? {
    let source = reader.entry("mirror").flatMap { entry in
      checkedTopic(entry.value, report: { reader.report($0, key: "mirror") })
    }
    let whenStale: MQTTSettings.StaleDisplay? = reader.choice("when-stale")
    let forwardsKeys = reader.boolean("forward-keys")
    if reader.entry("mirror") == nil {
      for key in ["when-stale", "forward-keys"] where reader.entry(key) != nil {
        reader.report("applies only to a mirror (mirror = TOPIC of the board it follows)", key: key)
      }
    }
    return source.map {
      MQTTSettings.Mirror(
        source: $0, whenStale: whenStale ?? .keep, forwardsKeys: forwardsKeys ?? false)
    }
  }

  /// `mqtt://host[:port]` or `mqtts://host[:port]`; IPv6 addresses in brackets.
  ///
  /// A user name or password in the URL (`mqtt://user:password@host`) is refused, and
  /// never repeated in the message: the password belongs in a file only the daemon's user
  /// can read (`password-file`), not in the configuration, and not in the journal.
  static func parseBroker(_ text: String, report: (String) -> Void)
    -> (transport: MQTTSettings.Transport, host: String, port: Int)?
  {
    let example = "mqtt://broker.local or mqtts://broker.local:8883"
    if let masked = URLCredentials.maskingUserInformation(ofURL: text[...]) {
      report(
        "expected no user name or password in the URL, found \(Listing.found(masked)); "
          + "give them as username = NAME and password-file = FILE (readable by "
          + "scoreboardd's user alone)")
      return nil
    }
    guard let schemeEnd = text.firstRange(of: "://") else {
      report("expected a broker URL such as \(example), found \(Listing.found(text))")
      return nil
    }
    let scheme = text[..<schemeEnd.lowerBound].lowercased()
    guard let transport = MQTTSettings.Transport(rawValue: scheme) else {
      report("expected mqtt:// or mqtts://, found '\(scheme)://'")
      return nil
    }
    var rest = text[schemeEnd.upperBound...]
    if rest.hasSuffix("/") {
      rest = rest.dropLast()
    }
    var host: Substring
    var portText: Substring?
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else {
        report("expected ']' after the IPv6 address in \(Listing.found(text))")
        return nil
      }
      host = rest[rest.index(after: rest.startIndex)..<close]
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else {
          report("expected ':PORT' after the address, found \(Listing.found(String(after)))")
          return nil
        }
        portText = after.dropFirst()
      }
    } else if let colon = rest.firstIndex(of: ":") {
      host = rest[..<colon]
      portText = rest[rest.index(after: colon)...]
    } else {
      host = rest
    }
    let allowed = host.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "-"
        || $0 == "." || $0 == ":" || $0 == "_"
    }
    guard !host.isEmpty, allowed, !host.contains("/") else {
      report(
        "expected a host name or address after '\(scheme)://', such as \(example), "
          + "found \(Listing.found(text))")
      return nil
    }
    var port = transport.defaultPort
    if let portText {
      guard let number = Int(portText), (1...65535).contains(number) else {
        report("expected a port from 1 to 65535, found \(Listing.found(String(portText)))")
        return nil
      }
      port = number
    }
    return (transport, String(host), port)
  }

  /// A topic a board publishes below or reads: levels of printable characters without
  /// the wildcards `+` and `#`, no empty level, no leading or trailing `/`.
  static func checkedTopic(_ text: String, report: (String) -> Void) -> String? {
    let example = "scoreboardd/court-1"
    guard !text.isEmpty else {
      report("expected a topic such as \(example), found nothing")
      return nil
    }
    if text.utf8.count > 200 {
      report("is longer than 200 bytes")
      return nil
    }
    if text.contains("+") || text.contains("#") {
      report("expected a topic without the wildcards + and #, found \(Listing.found(text))")
      return nil
    }
    if text.hasPrefix("/") || text.hasSuffix("/") || text.contains("//") {
      report(
        "expected topic levels separated by single '/', with no empty level, such as "
          + "\(example), found \(Listing.found(text))")
      return nil
    }
    if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == " " }) {
      report("expected a topic without spaces or control characters, found \(Listing.found(text))")
      return nil
    }
    return text
  }

  /// What is wrong with a client id, or nil.
  static func clientIDProblem(_ id: String) -> String? {
    let valid =
      !id.isEmpty && id.utf8.count <= 64
      && id.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "-" || $0 == "_"
      }
    return valid
      ? nil
      : "expected 1 to 64 letters, digits, '-' or '_', found \(Listing.found(id))"
  }

  /// `scoreboardd-court-1` for the topic `scoreboardd/court-1`.
  static func defaultClientID(topic: String) -> String {
    let mapped = String(
      topic.unicodeScalars.map { scalar -> Character in
        let keep =
          ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
          || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
        return keep ? Character(scalar) : "-"
      })
    let id = mapped.hasPrefix("scoreboardd") ? mapped : "scoreboardd-" + mapped
    return String(id.prefix(64))
  }
}
