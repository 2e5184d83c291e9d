@preconcurrency import Glibc
import Synchronization

/// A real Mosquitto broker on loopback ports of its own, with a generated configuration:
/// a plain listener that needs a password (user `board`, password `s3cret`, in a file
/// made by `mosquitto_passwd`) and a TLS listener whose certificate a throwaway CA made
/// by `openssl` signed. Killed, if it still runs, when released.
///
/// With `accounts`, those users are in the password file too, with the same password; with
/// `aclFile`, the plain listener allows each only what that Mosquitto ACL file says.
public final class MosquittoBroker {
  public static let broker = "/usr/sbin/mosquitto"
  public static let publisher = "/usr/bin/mosquitto_pub"
  public static let subscriber = "/usr/bin/mosquitto_sub"
  public static let user = "board"
  public static let password = "s3cret"

  /// Whether the broker, its clients and openssl are installed (`make deps` installs
  /// them); tests that need them are skipped otherwise.
  public static var isAvailable: Bool {
    let tools: [String] = [
      broker, publisher, subscriber, "/usr/bin/mosquitto_passwd", "/usr/bin/openssl",
    ]
    return tools.allSatisfy { access($0, X_OK) == 0 }
  }

  public let folder: TemporaryFolder
  public private(set) var port = 0
  public private(set) var tlsPort = 0
  private let anonymous: Bool
  private let aclFile: String?
  /// The CA that signed the broker's certificate, and one that did not.
  public let caFile: String
  public let otherCAFile: String
  private var process: DaemonProcess?
  /// How many `subscribe` clients were started: each has a client id of its own.
  private var subscribers = 0

  public init(anonymous: Bool = true, accounts: [String] = [], aclFile: String? = nil) throws {
    folder = try TemporaryFolder()
    self.anonymous = anonymous
    self.aclFile = aclFile
    caFile = folder.path(of: "ca.crt")
    otherCAFile = folder.path(of: "other-ca.crt")
    var addAccounts = ""
    for account in accounts {
      addAccounts += "mosquitto_passwd -b passwords '\(account)' \(Self.password) &&\n"
    }
    try Self.shell(
      """
      cd '\(folder.path)' &&
      mosquitto_passwd -b -c passwords \(Self.user) \(Self.password) &&
      \(addAccounts)
      for ca in ca other-ca; do
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
          -keyout $ca.key -out $ca.crt -days 2 -subj /CN=$ca; done &&
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -keyout server.key -out server.csr -subj /CN=localhost &&
      printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext &&
      openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
        -out server.crt -days 2 -extfile san.ext &&
      chmod 644 passwords server.key
      """)
    // Ports that were free a moment ago may be taken by the time the broker binds them
    // (two calls can even return the same one): a broker that exits gets new ones.
    for attempt in 1...3 {
      port = try Self.freePort()
      repeat { tlsPort = try Self.freePort() } while tlsPort == port
      try writeConfiguration()
      do {
        try start()
        return
      } catch let exited as BrokerExited where attempt < 3 {
        print("\(exited); trying other ports")
      }
    }
  }

  /// Writes mosquitto.conf for the ports of now.
  private func writeConfiguration() throws {
    let passwords = folder.path(of: "passwords")
    // Started as root, Mosquitto would change to its own user, who cannot enter the
    // test's private folder. Its queue for a client is 1,000 messages by default, beyond
    // which it drops them: a burst of 3,000 commands on a loaded machine (the daemon a
    // little behind) would be cut by the broker, not the daemon; the tests judge the
    // daemon.
    let user = geteuid() == 0 ? "user root\n" : ""
    let acl = aclFile.map { "acl_file \($0)\n" } ?? ""
    _ = try folder.write(
      "mosquitto.conf",
      """
      \(user)per_listener_settings true
      persistence false
      max_queued_messages 100000
      log_dest stderr
      log_type error
      log_type warning
      log_type notice
      log_type subscribe
      listener \(port) 127.0.0.1
      allow_anonymous \(anonymous)
      password_file \(passwords)
      \(acl)listener \(tlsPort) 127.0.0.1
      allow_anonymous true
      cafile \(caFile)
      certfile \(folder.path(of: "server.crt"))
      keyfile \(folder.path(of: "server.key"))

      """)
  }

  deinit {
    process = nil
  }

  /// `mqtt://127.0.0.1:PORT`.
  public var url: String { "mqtt://127.0.0.1:\(port)" }
  public var tlsURL: String { "mqtts://localhost:\(tlsPort)" }

  /// Starts the broker (again, on the same ports) and waits until it accepts
  /// connections.
  public func start() throws {
    process = try DaemonProcess(
      executable: Self.broker, arguments: ["-c", folder.path(of: "mosquitto.conf")])
    let deadline = Self.now() + 20
    while !Self.accepts(port: port) {
      // Waits 20 ms for the broker to end, reading what it writes meanwhile.
      if let process, process.waitForExit(timeout: 0.02) != nil {
        throw BrokerExited(message: process.stderrText)
      }
      guard Self.now() < deadline else { throw SpawnError(message: "mosquitto did not start") }
    }
  }

  /// The broker ended before it accepted connections; `message` is what it wrote.
  public struct BrokerExited: Error, CustomStringConvertible {
    public var message: String
    public var description: String { "mosquitto exited at its start: \(message)" }
  }

  /// Stops the broker (SIGSTOP): its connections stay open and it answers nothing.
  public func pause() {
    process?.send(signal: SIGSTOP)
  }

  /// The bytes waiting unread in the broker's end of its connections (its port's
  /// accepted sockets, from `/proc/net/tcp`): what clients sent to a paused broker.
  public var unreadBytes: Int {
    guard let table = readTextFile("/proc/net/tcp") else { return 0 }
    let local = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
    var total = 0
    for row in table.split(separator: "\n").dropFirst() {
      // sl local_address rem_address st tx_queue:rx_queue ...
      let fields = row.split(separator: " ")
      guard fields.count > 4, fields[1].hasSuffix(local), fields[3] == "01" else { continue }
      let queues = fields[4].split(separator: ":")
      if queues.count == 2, let received = Int(queues[1], radix: 16) {
        total += received
      }
    }
    return total
  }

  /// Kills the broker at once (SIGKILL): no goodbye to any client.
  public func kill() {
    if let process {
      process.send(signal: SIGKILL)
      _ = process.waitForExit()
    }
    process = nil
  }

  /// Runs `mosquitto_sub` as `user` until it got `count` messages on `topic` (retained
  /// ones included) or `timeout` seconds passed; its lines are `TOPIC PAYLOAD`. Returns
  /// once the broker has the subscription.
  public func subscribe(
    _ topic: String, count: Int = 1, timeout: Int = 5, extra: [String] = [],
    as user: String = MosquittoBroker.user
  ) throws -> DaemonProcess {
    subscribers += 1
    let clientID = "test-subscriber-\(getpid())-\(subscribers)"
    let subscriber = try DaemonProcess(
      executable: Self.subscriber,
      arguments: [
        "-h", "127.0.0.1", "-p", String(port), "-u", user, "-P", Self.password, "-t", topic,
        "-v", "-C", String(count), "-W", String(timeout), "-i", clientID,
      ] + extra)
    // Subscribed once the broker logs the subscription (`log_type subscribe`: "TIME:
    // CLIENT QOS TOPIC", written after it is in place): nothing published from then on is
    // missed. The client's connection (`log_type notice`) names it too, earlier.
    let subscribed = { (text: String) in
      text.split(separator: "\n").contains {
        $0.contains(": \(clientID) ") && $0.hasSuffix(" \(topic)")
      }
    }
    guard process?.waitForStderr(where: subscribed) == true else {
      throw SpawnError(
        message: "mosquitto_sub did not subscribe to \(topic): \(subscriber.stderrText)")
    }
    return subscriber
  }

  /// The retained message on `topic` that `user` may read, or nil when there is none.
  public func retained(_ topic: String, as user: String = MosquittoBroker.user) throws -> String? {
    let process = try DaemonProcess(
      executable: Self.subscriber,
      arguments: [
        "-h", "127.0.0.1", "-p", String(port), "-u", user, "-P", Self.password, "-t", topic,
        "-C", "1", "-W", "2", "--retained-only",
      ])
    return process.waitForLine(timeout: 5) { _ in true }
  }

  /// Publishes `payload` on `topic` as `user` with `mosquitto_pub` (and any `extra`
  /// options), at QoS 1: when it returns, the broker has acknowledged the message, so it
  /// took or dropped it before anything published after.
  public func publish(
    _ topic: String, _ payload: String, extra: [String] = [],
    as user: String = MosquittoBroker.user
  ) throws {
    let process = try DaemonProcess(
      executable: Self.publisher,
      arguments: [
        "-h", "127.0.0.1", "-p", String(port), "-u", user, "-P", Self.password, "-t", topic,
        "-m", payload, "-q", "1",
      ] + extra)
    guard process.waitForExit() == 0 else {
      throw SpawnError(message: "mosquitto_pub failed: \(process.stderrText)")
    }
  }

  /// Publishes each line of the file at `path` as a message on `topic` as `user`, at
  /// QoS 1 and as fast as the broker takes them (`mosquitto_pub -l`); returns once the
  /// broker has acknowledged them all.
  public func publishLines(
    _ topic: String, fromFile path: String, as user: String = MosquittoBroker.user
  ) throws {
    let process = try DaemonProcess(
      executable: "/bin/sh",
      arguments: [
        "-c", "exec \"$0\" \"$@\" < \"\(path)\"", Self.publisher, "-h", "127.0.0.1", "-p",
        String(port), "-u", user, "-P", Self.password, "-t", topic, "-l", "-q", "1",
      ])
    guard process.waitForExit(timeout: 60) == 0 else {
      throw SpawnError(message: "mosquitto_pub -l failed: \(process.stderrText)")
    }
  }

  // MARK: - Helpers

  private static func shell(_ script: String) throws {
    let process = try DaemonProcess(executable: "/bin/sh", arguments: ["-c", script])
    guard process.waitForExit(timeout: 60) == 0 else {
      throw SpawnError(message: "setting up the broker failed: \(process.stderrText)")
    }
  }

  /// A loopback port nothing listens on now, below the kernel's ephemeral range
  /// (32768-60999 by default), so no outgoing connection and no `bind` to port 0 in a
  /// test running beside this one can take it before the caller binds it. Each call of a
  /// process gives another port; processes start at places of their own.
  public static func freePort() throws -> Int {
    let first = 20_000
    let count = 12_000
    let start = Int(getpid()) &* 211
    for _ in 0..<count {
      let port = first + (start &+ nextPort.add(1, ordering: .relaxed).oldValue) % count
      if isUnbound(port: port) { return port }
    }
    throw SpawnError(message: "no free loopback port in \(first)-\(first + count - 1)")
  }

  private static let nextPort = Atomic<Int>(0)

  /// Whether a TCP socket can be bound to the loopback `port` now.
  private static func isUnbound(port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// Whether something accepts TCP connections on the loopback `port`.
  public static func accepts(port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  public static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

extension String {
  /// The string with zeros before it up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
