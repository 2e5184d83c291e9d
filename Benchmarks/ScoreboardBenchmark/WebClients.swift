@preconcurrency import Glibc
import LinuxIO

// The clients of the web scenario, on raw sockets: pages' event streams (Server-Sent
// Events from `/api/events`, read as an EventSource reads them) and a paired phone's
// keep-alive HTTP connection, beside the control socket.

/// A scoreboardd's `[web]` section: a loopback port of its own, the repository's pages,
/// and room for a hundred pages from one address.
struct WebSetup {
  var port: Int
  /// The folder of the pages (the repository's `web`).
  var pages: String

  /// The `Host` of requests to the board, and the host of their `Origin`.
  var host: String { "127.0.0.1:\(port)" }

  var section: String {
    "\n[web]\nlisten = \(host)\npages = \(pages)\nconnections = 1000\n"
      + "connections-per-address = 1000\n"
  }
}

/// A TCP connection to the loopback `port`, with TCP_NODELAY (as browsers set it),
/// non-blocking once connected. The caller owns the descriptor.
func connectLoopback(port: Int) throws -> CInt {
  let descriptor = socket(AF_INET, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
  guard descriptor >= 0 else { throw BenchmarkError(description: "socket: errno \(errno)") }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = UInt16(port).bigEndian
  let connected = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    let error = errno
    close(descriptor)
    throw BenchmarkError(description: "connect to 127.0.0.1:\(port): errno \(error)")
  }
  var on: CInt = 1
  setsockopt(
    descriptor, CInt(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<CInt>.size))
  _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
  return descriptor
}

/// A stream connection to the Unix socket at `path`, non-blocking. The caller owns the
/// descriptor.
func connectUnix(path: String) throws -> CInt {
  let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
  guard descriptor >= 0 else { throw BenchmarkError(description: "socket: errno \(errno)") }
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() {
      raw[index] = byte
    }
  }
  let connected = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard connected == 0 else {
    let error = errno
    close(descriptor)
    throw BenchmarkError(description: "connect to \(path): errno \(error)")
  }
  _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
  return descriptor
}

/// Writes all of `bytes` to a connected socket whose buffer has room (a request of a
/// few hundred bytes).
func sendAll(_ descriptor: CInt, _ bytes: [UInt8]) throws {
  var offset = 0
  while offset < bytes.count {
    let sent = bytes.withUnsafeBytes {
      send(descriptor, $0.baseAddress! + offset, bytes.count - offset, CInt(MSG_NOSIGNAL))
    }
    guard sent > 0 else {
      throw BenchmarkError(description: "send: errno \(errno)")
    }
    offset += sent
  }
}

/// A page's event stream on a raw socket: `GET /api/events` over HTTP/1.1, the chunked
/// body undone and its Server-Sent Events parsed line by line as they arrive. It notes
/// when the `data: value home N` line of a `watch` event arrives: the change as a page
/// learns it.
final class EventStreamClient {
  let descriptor: CInt
  /// Every byte received, the response's head and chunk framing included.
  private(set) var bytesReceived = 0
  /// The complete `frames` events received: the first ends the burst sent on connecting.
  private(set) var framesEvents = 0
  /// The connection ended (the server closed it, or an error).
  private(set) var isClosed = false
  /// The first `value home N` watch line since `awaitHome()`, and when the read that
  /// brought it returned.
  private(set) var homeArrival: (value: Int, at: Int64)?

  private enum Part {
    case head
    case chunkSize
    case chunkData(remaining: Int)
    case chunkEnd(remaining: Int)
    /// The body without chunks (not seen from libmicrohttpd with HTTP/1.1).
    case plain
  }
  private var part = Part.head
  private var head: [UInt8] = []
  private var sizeLine: [UInt8] = []
  private var line: [UInt8] = []
  private var event = ""

  /// Connects to the board and asks for its event stream.
  init(_ setup: WebSetup) throws {
    descriptor = try connectLoopback(port: setup.port)
    do {
      try sendAll(
        descriptor,
        Array(
          ("GET /api/events HTTP/1.1\r\nHost: \(setup.host)\r\nAccept: text/event-stream\r\n"
            + "Cache-Control: no-cache\r\n\r\n").utf8))
    } catch {
      close(descriptor)
      throw error
    }
  }

  deinit {
    close(descriptor)
  }

  /// Forgets the last watch line: the next `value home N` is the one awaited.
  func awaitHome() {
    homeArrival = nil
  }

  /// Reads everything the socket has into `buffer`, noting each read's return as the
  /// arrival of what it brought.
  func receive(using buffer: UnsafeMutableRawBufferPointer) {
    while !isClosed {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      let at = MonotonicClock.now()
      if count > 0 {
        bytesReceived += count
        take(UnsafeRawBufferPointer(rebasing: buffer[..<count]), at: at)
      } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
        isClosed = true
      } else if errno == EAGAIN {
        return
      }
    }
  }

  private func take(_ bytes: UnsafeRawBufferPointer, at: Int64) {
    var index = 0
    while index < bytes.count {
      switch part {
      case .head:
        head.append(bytes[index])
        index += 1
        if head.count >= 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) {
          let text = String(decoding: head, as: UTF8.self).lowercased()
          part = text.contains("transfer-encoding: chunked") ? .chunkSize : .plain
          if !text.hasPrefix("http/1.1 200") {
            isClosed = true
            return
          }
        }
      case .chunkSize:
        let byte = bytes[index]
        index += 1
        guard byte == UInt8(ascii: "\n") else {
          sizeLine.append(byte)
          continue
        }
        let digits = trimmed(
          String(decoding: sizeLine, as: UTF8.self).split(separator: ";").first ?? "", "\r ")
        sizeLine = []
        guard let size = Int(digits, radix: 16) else {
          isClosed = true
          return
        }
        if size == 0 {
          isClosed = true
          return
        }
        part = .chunkData(remaining: size)
      case .chunkData(let remaining):
        let count = min(remaining, bytes.count - index)
        parse(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]), at: at)
        index += count
        part =
          remaining == count ? .chunkEnd(remaining: 2) : .chunkData(remaining: remaining - count)
      case .chunkEnd(let remaining):
        index += 1
        part = remaining == 1 ? .chunkSize : .chunkEnd(remaining: remaining - 1)
      case .plain:
        parse(UnsafeRawBufferPointer(rebasing: bytes[index...]), at: at)
        index = bytes.count
      }
    }
  }

  /// Parses the event stream's bytes line by line.
  private func parse(_ bytes: UnsafeRawBufferPointer, at: Int64) {
    for byte in bytes {
      guard byte == UInt8(ascii: "\n") else {
        line.append(byte)
        continue
      }
      if line.last == UInt8(ascii: "\r") {
        line.removeLast()
      }
      handleLine(at: at)
      line.removeAll(keepingCapacity: true)
    }
  }

  private static let eventPrefix = Array("event: ".utf8)
  private static let homePrefix = Array("data: value home ".utf8)

  private func handleLine(at: Int64) {
    if line.isEmpty {
      if event == "frames" {
        framesEvents += 1
      }
      event = ""
    } else if line.starts(with: Self.eventPrefix) {
      event = String(decoding: line.dropFirst(Self.eventPrefix.count), as: UTF8.self)
    } else if event == "watch", homeArrival == nil, line.starts(with: Self.homePrefix),
      let value = Int(String(decoding: line.dropFirst(Self.homePrefix.count), as: UTF8.self))
    {
      homeArrival = (value, at)
    }
  }
}

/// `text` without the leading and trailing characters in `set`.
private func trimmed(_ text: Substring, _ set: String) -> String {
  var text = text
  while let first = text.first, set.contains(first) {
    text = text.dropFirst()
  }
  while let last = text.last, set.contains(last) {
    text = text.dropLast()
  }
  return String(text)
}

/// A connection that asks and is answered, read as the answers come: the control socket
/// (an answer is a line) or a phone's HTTP/1.1 keep-alive connection (an answer is a
/// status line, headers and a body of `Content-Length` bytes).
final class RequestConnection {
  enum Framing {
    case controlLine
    case http
  }

  /// One answer: for the control socket, its line as `body` and status 0.
  struct Answer {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: String

    /// The value of the header `name` (case-insensitive), or nil.
    func header(_ name: String) -> String? {
      headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
  }

  let descriptor: CInt
  let kind: Framing
  private var input: [UInt8] = []
  private(set) var isClosed = false

  init(descriptor: CInt, kind: Framing) {
    self.descriptor = descriptor
    self.kind = kind
  }

  deinit {
    close(descriptor)
  }

  func send(_ bytes: [UInt8]) throws {
    try sendAll(descriptor, bytes)
  }

  /// Reads what the socket has.
  func receive() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !isClosed {
      let count = read(descriptor, &buffer, buffer.count)
      if count > 0 {
        input += buffer[..<count]
      } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
        isClosed = true
      } else if errno == EAGAIN {
        return
      }
    }
  }

  /// The next complete answer, taken off the input; nil while it is incomplete.
  func takeAnswer() -> Answer? {
    switch kind {
    case .controlLine:
      guard let newline = input.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      let line = String(decoding: input[..<newline], as: UTF8.self)
      input.removeSubrange(...newline)
      return Answer(status: 0, headers: [], body: line)
    case .http:
      guard let end = Self.endOfHead(input) else { return nil }
      let lines = String(decoding: input[..<end], as: UTF8.self).split(separator: "\r\n")
      let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
      let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (
          String(line[..<colon]),
          trimmed(line[line.index(after: colon)...], " ")
        )
      }
      let length =
        headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
      let bodyStart = end + 4
      guard input.count >= bodyStart + length else { return nil }
      let body = String(decoding: input[bodyStart..<(bodyStart + length)], as: UTF8.self)
      input.removeSubrange(..<(bodyStart + length))
      return Answer(status: status ?? 0, headers: headers, body: body)
    }
  }

  /// Where the blank line that ends an HTTP head starts.
  private static func endOfHead(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
      && bytes[index + 3] == 10
    {
      return index
    }
    return nil
  }

  /// Waits for the next answer until `deadline`; nil then, or when the connection ended.
  func answer(deadline: Int64) -> Answer? {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      if let answer = takeAnswer() {
        return answer
      }
      let now = MonotonicClock.now()
      guard !isClosed, now < deadline else { return nil }
      if poll(&entry, 1, CInt(min((deadline - now) / 1_000_000 + 1, 1000))) > 0 {
        receive()
      }
    }
  }

  /// A POST to the board as a page sends it (`Host` and `Origin` the board's own).
  static func post(
    _ path: String, body: String, setup: WebSetup, cookie: String?, contentType: String
  ) -> [UInt8] {
    var text = "POST \(path) HTTP/1.1\r\nHost: \(setup.host)\r\nOrigin: http://\(setup.host)\r\n"
    if let cookie {
      text += "Cookie: \(cookie)\r\n"
    }
    text +=
      "Content-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    return Array(text.utf8)
  }
}

/// The memory of a process from `/proc/PID/smaps_rollup`, in kB.
struct MemoryFigures {
  var resident = 0
  /// Its proportional share of every page it maps (shared pages divided among their users).
  var proportional = 0
  /// Pages written by it alone: what it costs the machine beyond shared code.
  var privateDirty = 0

  init() {}

  init(pid: pid_t) {
    for line in ((try? readText("/proc/\(pid)/smaps_rollup")) ?? "").split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 2, let value = Int(fields[1]) else { continue }
      switch fields[0] {
      case "Rss:": resident = value
      case "Pss:": proportional = value
      case "Private_Dirty:": privateDirty = value
      default: break
      }
    }
  }
}

/// How many descriptors a process has open (`/proc/PID/fd`).
func openDescriptors(of pid: pid_t) -> Int {
  guard let directory = opendir("/proc/\(pid)/fd") else { return 0 }
  defer { closedir(directory) }
  var count = 0
  while let entry = readdir(directory) {
    let isDot = withUnsafePointer(to: &entry.pointee.d_name) {
      UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self).pointee == CChar(UInt8(ascii: "."))
    }
    if !isDot {
      count += 1
    }
  }
  return count
}

/// What a pseudo-terminal adds when its writer keeps the CPU after writing: a child of
/// this program (`--pty-writer`) writes 2 bytes to a pseudo-terminal's slave side each
/// time a byte comes on its standard input, then keeps its CPU busy for a set time, as
/// the board does after a frame's `write` while it serves its pages.
enum PseudoTerminalCheck {
  /// Nanoseconds from the write of each of `count` triggers to the return of the `poll`
  /// that finds the child's bytes on the master side, a trigger every 2 ms, the child
  /// spinning `spin` ns after each write.
  static func measure(spin: Int64, count: Int) throws -> [Int64] {
    let terminal = try PseudoTerminal.open()
    // Kept open until the harness exits, as the instances' are: no later instance gets
    // its number.
    defer { Instance.retire(terminal) }
    try terminal.master.setNonBlocking()
    // Held open so that the master never reports a hang-up.
    let slave = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw BenchmarkError(description: "open \(terminal.slavePath)") }
    defer { close(slave) }
    var ends: [CInt] = [0, 0]
    guard pipe(&ends) == 0 else { throw BenchmarkError(description: "pipe") }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    let child: pid_t
    do {
      child = try spawn(
        [CommandLine.arguments[0], "--pty-writer", terminal.slavePath, String(spin)],
        standardInput: ends[0])
    } catch {
      close(ends[0])
      close(ends[1])
      throw error
    }
    close(ends[0])
    defer {
      close(ends[1])
      var status: CInt = 0
      waitpid(child, &status, 0)
    }
    let master = terminal.master.rawValue
    var samples: [Int64] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    var next = MonotonicClock.now()
    for number in 0..<(count + 20) {
      MonotonicClock.sleep(until: next)
      let start = MonotonicClock.now()
      var trigger: UInt8 = 1
      guard write(ends[1], &trigger, 1) == 1 else {
        throw BenchmarkError(description: "the pseudo-terminal writer is gone")
      }
      var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, 5000) > 0 else {
        throw BenchmarkError(description: "the pseudo-terminal writer wrote nothing")
      }
      let arrival = MonotonicClock.now()
      var received = 0
      while received < 2 {
        let count = read(master, &buffer, buffer.count)
        if count > 0 {
          received += count
        } else if poll(&entry, 1, 5000) <= 0 {
          throw BenchmarkError(description: "the pseudo-terminal writer wrote too little")
        }
      }
      if number >= 20 {
        samples.append(arrival - start)
      }
      next = max(next + Scenarios.keyInterval, MonotonicClock.now())
    }
    return samples
  }

  /// The child's side (`ScoreboardBenchmark --pty-writer SLAVE SPIN_NS`): for every byte on
  /// standard input, writes 2 bytes to SLAVE, then keeps its CPU for SPIN_NS; ends when
  /// standard input ends.
  static func runWriter(slave path: String, spin: Int64) -> Never {
    let slave = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { exit(1) }
    var byte: UInt8 = 0
    let frame: [UInt8] = [0x79, 0x00]
    while read(0, &byte, 1) == 1 {
      let start = MonotonicClock.now()
      _ = write(slave, frame, frame.count)
      while MonotonicClock.now() - start < spin {}
    }
    exit(0)
  }
}
