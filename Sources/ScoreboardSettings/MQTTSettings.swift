/// How a board reaches the venue's MQTT broker, the topics it uses there, and whether it
/// mirrors another board: the `[mqtt]` section.
public struct MQTTSettings: Hashable, Sendable {
  /// `mqtt://` (plain TCP) or `mqtts://` (TLS).
  public enum Transport: String, Hashable, Sendable {
    case plain = "mqtt"
    case tls = "mqtts"

    /// The port of the scheme when the URL names none: 1883 or 8883.
    public var defaultPort: Int { self == .plain ? 1883 : 8883 }
  }

  /// What a mirror's displays show while its master or the broker is away.
  public enum StaleDisplay: String, CaseIterable, Hashable, Sendable {
    /// The last values the mirror knew.
    case keep
    /// Nothing: every field dark.
    case blank
    /// Dashes in every digit of the mirrored fields.
    case dashes
  }

  /// A board whose fields come from another board's state document.
  public struct Mirror: Hashable, Sendable {
    /// The other board's base topic (`scoreboardd/court-1`).
    public var source: String
    /// What the displays show while the source is away.
    public var whenStale: StaleDisplay
    /// Whether this board's keypads act on the source board (a second operator desk),
    /// through its command topic.
    public var forwardsKeys: Bool

    /// A mirror of `source`.
    public init(source: String, whenStale: StaleDisplay = .keep, forwardsKeys: Bool = false) {
      self.source = source
      self.whenStale = whenStale
      self.forwardsKeys = forwardsKeys
    }
  }

  public var transport: Transport
  /// The broker's host name or address (an IPv6 address without brackets).
  public var host: String
  public var port: Int
  /// The client id the board connects with; unique among the broker's clients.
  public var clientID: String
  /// The base topic of this board (`scoreboardd/court-1`): state, status, command and
  /// reply are below it.
  public var baseTopic: String
  public var username: String?
  /// A file holding the password (its first line), readable by the daemon's user only.
  public var passwordFile: String?
  /// The certificate authorities that may sign the broker's certificate (TLS); nil: the
  /// system's.
  public var caFile: String?
  /// Seconds between the client's keep-alive pings; the broker publishes the will after
  /// 1.5 times this without a word.
  public var keepAliveSeconds: Int
  /// The quality of service of what the board publishes and subscribes to.
  public var qos: Int
  /// The prefix of Home Assistant's discovery topics; nil: no discovery.
  public var discoveryPrefix: String?
  /// The device's name in Home Assistant.
  public var deviceName: String
  /// The board this one mirrors; nil: it keeps its own score.
  public var mirror: Mirror?

  /// Settings for a broker at `host`.
  public init(
    transport: Transport = .plain, host: String, port: Int? = nil, clientID: String,
    baseTopic: String, username: String? = nil, passwordFile: String? = nil,
    caFile: String? = nil, keepAliveSeconds: Int = 30, qos: Int = 1,
    discoveryPrefix: String? = "homeassistant", deviceName: String? = nil, mirror: Mirror? = nil
  ) {
    self.transport = transport
    self.host = host
    self.port = port ?? transport.defaultPort
    self.clientID = clientID
    self.baseTopic = baseTopic
    self.username = username
    self.passwordFile = passwordFile
    self.caFile = caFile
    self.keepAliveSeconds = keepAliveSeconds
    self.qos = qos
    self.discoveryPrefix = discoveryPrefix
    self.deviceName = deviceName ?? baseTopic
    self.mirror = mirror
  }

  /// `mqtts://broker.lan:8883`, for messages and the log. It never shows a password: the
  /// configuration refuses a user name or password in the broker's URL (`username` and
  /// `password-file` give them), and a host made with one anyway
  /// (`user:password@broker.lan`) is shown as `***@broker.lan`.
  public var brokerURL: String {
    var shownHost = host
    var userInformation = ""
    if let at = host.lastIndex(of: "@") {
      shownHost = String(host[host.index(after: at)...])
      userInformation = "***@"
    }
    if shownHost.contains(":") {
      shownHost = "[\(shownHost)]"
    }
    return "\(transport.rawValue)://\(userInformation)\(shownHost):\(port)"
  }
}
