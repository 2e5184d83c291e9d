import CScoreboardMQTT

/// An MQTT 5 client of one broker, through libmosquitto on a worker thread of its own:
/// name resolution, connecting, TLS handshakes and reconnecting (with back-off) happen
/// there, never on the caller's thread. The caller watches `eventDescriptor` for
/// readability, takes `nextEvent()` until nil, and publishes; publishing never waits
/// for the network, nor for the worker.
public final class MQTTClient {
  /// How to reach the broker.
  public struct Options: Sendable {
    public var host: String
    public var port: Int
    public var clientID: String
    public var username: String?
    public var password: String?
    public var usesTLS: Bool
    /// The CA file for TLS; nil: the system's certificates.
    public var caFile: String?
    public var keepAliveSeconds: Int
    /// Published (retained) by the broker when the client goes without a word.
    public var will: (topic: String, payload: String, qos: Int)?

    /// Options for `settings`, with the password read from its file.
    public init(
      host: String, port: Int, clientID: String, username: String? = nil,
      password: String? = nil, usesTLS: Bool = false, caFile: String? = nil,
      keepAliveSeconds: Int = 30, will: (topic: String, payload: String, qos: Int)? = nil
    ) {
      self.host = host
      self.port = port
      self.clientID = clientID
      self.username = username
      self.password = password
      self.usesTLS = usesTLS
      self.caFile = caFile
      self.keepAliveSeconds = keepAliveSeconds
      self.will = will
    }
  }

  /// A message that arrived on a subscribed topic.
  public struct Message: Hashable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    /// MQTT 5: where the sender wants its answer, and the bytes to answer with.
    public var responseTopic: String?
    public var correlation: [UInt8]?
    /// Whether it came with the retain flag: the broker kept it from before.
    public var isRetained: Bool
    /// The QoS it was delivered with.
    public var qos: Int = 0

    /// A message on `topic`.
    public init(
      topic: String, payload: [UInt8], responseTopic: String? = nil, correlation: [UInt8]? = nil,
      isRetained: Bool = false, qos: Int = 0
    ) {
      self.topic = topic
      self.payload = payload
      self.responseTopic = responseTopic
      self.correlation = correlation
      self.isRetained = isRetained
      self.qos = qos
    }
  }

  /// The largest payload taken (`maximumPacketSize` is announced to the broker, which
  /// drops larger messages); a larger one is `Event.refused`.
  public static let maximumPayload = Int(SBM_MAXIMUM_PAYLOAD)

  /// What happened to the connection.
  public enum Event: Hashable, Sendable {
    /// The broker accepted the connection; subscriptions are renewed.
    case connected
    /// A connection attempt failed or was refused, or a connection ended; the client
    /// tries again by itself.
    case disconnected(reason: String)
    case message(Message)
    /// A message larger than `maximumPayload` on `topic` was dropped unread.
    case refused(topic: String, size: Int, isRetained: Bool)
  }

  private let client: OpaquePointer
  private var isStopped = false

  /// A client that does nothing until `start()`.
  ///
  /// - Throws: `MQTTClientError` when libmosquitto refuses the options (a CA file it
  ///   cannot load, say).
  public init(_ options: Options) throws(MQTTClientError) {
    var problem: UnsafePointer<CChar>?
    let made: OpaquePointer? = options.host.withCString { host in
      options.clientID.withCString { clientID in
        Self.withOptionalCString(options.username) { username in
          Self.withOptionalCString(options.password) { password in
            Self.withOptionalCString(options.caFile) { caFile in
              Self.withOptionalCString(options.will?.topic) { willTopic in
                Self.withOptionalCString(options.will?.payload) { willPayload in
                  var raw = sbm_options(
                    host: host, port: Int32(options.port), client_id: clientID,
                    username: username, password: password, tls: options.usesTLS ? 1 : 0,
                    ca_file: caFile, keepalive_seconds: Int32(options.keepAliveSeconds),
                    will_topic: willTopic, will_payload: willPayload,
                    will_qos: Int32(options.will?.qos ?? 0), will_retain: 1)
                  return sbm_client_new(&raw, &problem)
                }
              }
            }
          }
        }
      }
    }
    guard let made else {
      throw MQTTClientError(problem.map { String(cString: $0) } ?? "cannot make an MQTT client")
    }
    client = made
  }

  deinit {
    stop()
  }

  /// The descriptor that is readable while events wait.
  public var eventDescriptor: Int32 {
    sbm_client_event_fd(client)
  }

  /// Starts connecting, on the worker thread.
  public func start() throws(MQTTClientError) {
    let error = sbm_client_start(client)
    guard error == 0 else {
      throw MQTTClientError("cannot start the MQTT thread (error \(error))")
    }
  }

  /// The next event, or nil when none waits.
  public func nextEvent() -> Event? {
    var raw = sbm_event()
    guard sbm_client_next_event(client, &raw) == 1 else { return nil }
    defer { sbm_event_free(&raw) }
    switch raw.kind {
    case SBM_CONNECTED:
      return .connected
    case SBM_DISCONNECTED:
      return .disconnected(reason: raw.text.map { String(cString: $0) } ?? "connection ended")
    case SBM_REFUSED:
      return .refused(
        topic: raw.topic.map { String(cString: $0) } ?? "", size: raw.payload_length,
        isRetained: raw.retained != 0)
    default:
      let payload = raw.payload.map {
        Array(UnsafeBufferPointer(start: $0, count: raw.payload_length))
      }
      let correlation = raw.correlation.map {
        Array(UnsafeBufferPointer(start: $0, count: raw.correlation_length))
      }
      return .message(
        Message(
          topic: raw.topic.map { String(cString: $0) } ?? "", payload: payload ?? [],
          responseTopic: raw.response_topic.map { String(cString: $0) },
          correlation: correlation, isRetained: raw.retained != 0, qos: Int(raw.qos)))
    }
  }

  /// Subscribes to `topic` now if connected, and again after every reconnection. With
  /// `retainAsPublished`, a message published with the retain flag keeps it when it is
  /// delivered live too (MQTT 5), not only when the broker sends what it kept.
  public func subscribe(_ topic: String, qos: Int, retainAsPublished: Bool = false) {
    _ = sbm_client_subscribe(client, topic, Int32(qos), retainAsPublished ? 1 : 0)
  }

  /// Publishes one message; false when not connected (nothing is queued then) or
  /// libmosquitto refused it.
  @discardableResult
  public func publish(
    _ topic: String, _ payload: [UInt8], qos: Int, retain: Bool,
    responseTopic: String? = nil, correlation: [UInt8]? = nil
  ) -> Bool {
    let result = payload.withUnsafeBytes { bytes in
      Self.withOptionalCString(responseTopic) { responseTopic in
        Self.withOptionalBytes(correlation) { correlationBytes, correlationCount in
          sbm_client_publish(
            client, topic, bytes.baseAddress, bytes.count, Int32(qos), retain ? 1 : 0,
            responseTopic, correlationBytes, correlationCount)
        }
      }
    }
    return result == 0
  }

  /// Publishes `text` as UTF-8.
  @discardableResult
  public func publish(
    _ topic: String, _ text: String, qos: Int, retain: Bool, responseTopic: String? = nil,
    correlation: [UInt8]? = nil
  ) -> Bool {
    publish(
      topic, Array(text.utf8), qos: qos, retain: retain, responseTopic: responseTopic,
      correlation: correlation)
  }

  /// `libmosquitto 2.0.11`, or `libmosquitto not loaded: WHY`: the library in use, for
  /// `--version`.
  public static var libraryDescription: String {
    var text = [CChar](repeating: 0, count: 320)
    sbm_library_version(&text, text.count)
    return "libmosquitto "
      + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Disconnects (the broker publishes the will) and stops the worker, waiting at most
  /// a second for a worker stuck in name resolution.
  public func stop() {
    guard !isStopped else { return }
    isStopped = true
    sbm_client_stop(client, 1000)
  }

  private static func withOptionalCString<Result>(
    _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
  ) -> Result {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
  }

  private static func withOptionalBytes<Result>(
    _ bytes: [UInt8]?, _ body: (UnsafeRawPointer?, Int) -> Result
  ) -> Result {
    guard let bytes else { return body(nil, 0) }
    return bytes.withUnsafeBytes { body($0.baseAddress, $0.count) }
  }
}
