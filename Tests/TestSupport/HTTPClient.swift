@preconcurrency import Glibc

/// A plain HTTP/1.1 client over one TCP connection to 127.0.0.1, for the tests of the
/// board's web server: it sends the bytes it is told to (well-formed or not) and reads
/// the answer with a deadline.
public final class HTTPClient {
  /// An answer: its status, its header lines, its body.
  public struct Response {
    public var status: Int
    public var headers: [String: String]
    public var body: String
  }

  private let socket: CInt
  private var received: [UInt8] = []

  /// Connects to `port` on 127.0.0.1 from the address `source` (another of the loopback
  /// network's, such as 127.0.0.2, is another client machine to the server);
  /// `receiveBuffer` makes the socket's receive buffer that small (a client that reads
  /// slowly fills it soon).
  public init(port: Int, from source: String = "127.0.0.1", receiveBuffer: Int? = nil) throws {
    socket = Glibc.socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw SpawnError(message: "socket failed") }
    if var size = receiveBuffer.map(CInt.init) {
      setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<CInt>.size))
    }
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      close(socket)
      throw SpawnError(message: "cannot bind to \(source): errno \(errno)")
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw SpawnError(message: "cannot connect to port \(port): errno \(errno)")
    }
  }

  deinit {
    close(socket)
  }

  /// Sends raw bytes.
  public func send(_ text: String) {
    send(bytes: Array(text.utf8))
  }

  /// Sends raw bytes, which need not be UTF-8.
  public func send(bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL)) }
  }

  /// Sends a request for `path` with `method`, `headers` (`Host: 127.0.0.1` unless they
  /// have one) and `body`, and reads its answer.
  public func request(
    _ path: String, method: String = "GET", headers: [String: String] = [:], body: String = "",
    timeout: Double = 10
  ) -> Response? {
    var text = "\(method) \(path) HTTP/1.1\r\n"
    if !headers.keys.contains(where: { $0.lowercased() == "host" }) {
      text += "Host: 127.0.0.1\r\n"
    }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      text += "\(name): \(value)\r\n"
    }
    if !body.isEmpty {
      text += "Content-Length: \(body.utf8.count)\r\n"
    }
    send(text + "\r\n" + body)
    return response(timeout: timeout)
  }

  /// Reads one answer: its header, then a body of its Content-Length (or, without one,
  /// what comes until the deadline or the end of the connection).
  public func response(timeout: Double = 10) -> Response? {
    let deadline = Self.now() + timeout
    var headerEnd: Int?
    while headerEnd == nil {
      headerEnd = received.indices.dropLast(3).first {
        received[$0] == 13 && received[$0 + 1] == 10 && received[$0 + 2] == 13
          && received[$0 + 3] == 10
      }
      if headerEnd == nil, !readMore(until: deadline) { return nil }
    }
    let head = String(decoding: received[..<headerEnd!], as: UTF8.self)
    var lines = head.split(separator: "\r\n").map(String.init)
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] =
        line[line.index(after: colon)...]
        .trimmingPrefix(" ").description
    }
    let bodyStart = headerEnd! + 4
    if let length = headers["content-length"].flatMap({ Int($0) }) {
      while received.count < bodyStart + length {
        guard readMore(until: deadline) else { return nil }
      }
      let body = String(decoding: received[bodyStart..<(bodyStart + length)], as: UTF8.self)
      received.removeFirst(bodyStart + length)
      return Response(status: status, headers: headers, body: body)
    }
    received.removeFirst(bodyStart)
    return Response(status: status, headers: headers, body: "")
  }

  /// Reads what comes until `condition` holds for the text of the stream so far (a
  /// stream of events); false after `timeout` seconds or at the end of the connection.
  public func readStream(timeout: Double = 10, until condition: (String) -> Bool) -> Bool {
    let deadline = Self.now() + timeout
    while !condition(streamText) {
      guard readMore(until: deadline) else { return false }
    }
    return true
  }

  /// What a stream sent so far, after its answer's header.
  public var streamText: String {
    String(decoding: received, as: UTF8.self)
  }

  /// Whether the server closed the connection, read within `timeout` seconds.
  public func isClosed(within timeout: Double) -> Bool {
    let deadline = Self.now() + timeout
    while readMore(until: deadline) {}
    return ended
  }

  private var ended = false

  private func readMore(until deadline: Double) -> Bool {
    let remaining = deadline - Self.now()
    guard remaining > 0, !ended else { return false }
    var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    guard poll(&entry, 1, CInt(remaining * 1000) + 1) > 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = recv(socket, &chunk, chunk.count, 0)
    guard count > 0 else {
      ended = true
      return false
    }
    received += chunk[..<count]
    return true
  }

  private static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
