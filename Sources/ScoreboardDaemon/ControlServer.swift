@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore

/// The control socket: a local line protocol (`docs/control-protocol.md`) that
/// `scoreboardctl` and scripts use to query and drive the scoreboard.
///
/// The server owns the listening socket and its clients, and watches them in the
/// daemon's `PollLoop`; it never blocks. Each request line goes to the `ControlHandler`
/// and its answer back to the client; `broadcast(_:)` streams event lines to the clients
/// that sent `watch`. A client sending a line longer than `maximumLineLength` or invalid
/// UTF-8, or one client too many, is told why and disconnected; a client that leaves
/// more than `outputLimit` bytes of answers or events unread is disconnected.
public final class ControlServer {
  /// Where the socket is unless the configuration says otherwise.
  public static let defaultPath = "/run/scoreboardd/control"
  /// The most bytes a request line may hold, not counting its line end.
  public static let maximumLineLength = 1024
  /// The most bytes of answers and events that may wait for one client to read them.
  public static let outputLimit = 64 * 1024
  /// The most bytes read from one client per wakeup, so that a client sending a flood of
  /// requests leaves its turn to the others.
  private static let readSize = 4096

  /// The socket file.
  public var path: String { listener.path }
  /// How many clients may be connected at once.
  public let maximumClients: Int
  private let listener: UnixListener
  private let loop: PollLoop
  private weak var handler: (any ControlHandler)?
  private let logger: Logger
  /// The listener's watch; nil while accepting is paused or after `close()`.
  private var listenerToken: PollLoop.Token?
  private var clients: [Client] = []
  private var clientsAccepted = 0
  private var isClosed = false

  /// One connected client and what waits to be read from it or written to it.
  private final class Client {
    let name: String
    let connection: UnixConnection
    var token: PollLoop.Token?
    var watchedEvents: PollLoop.Events = []
    /// Bytes received that do not yet make a whole line.
    var input: [UInt8] = []
    /// Answers and events the socket could not take yet.
    var output: [UInt8] = []
    var isWatching = false
    /// The client finished sending; it is closed once its answers are out.
    var inputEnded = false
    var isClosed = false
    /// A request's answer is still to come (its change is being saved): the client's
    /// next requests wait, unread.
    var awaitsAnswer = false
    /// The handler is being called for this client now.
    var isInHandler = false
    /// Whole lines wait in `input`, left for a later round because something more
    /// urgent came (`ControlHandler.urgentWorkWaits`); nothing more is read until then.
    var hasDeferredLines = false

    /// Whether every request was read and answered, and every answer written.
    var isDone: Bool {
      inputEnded && input.isEmpty && output.isEmpty && !awaitsAnswer
    }

    init(name: String, connection: UnixConnection) {
      self.name = name
      self.connection = connection
    }
  }

  /// Creates the socket at `path` and starts accepting clients in `loop`.
  ///
  /// - Parameters:
  ///   - permissions: The socket file's mode: who may connect (write permission).
  ///   - maximumClients: How many clients may be connected at once; one more is told
  ///     `error too many clients` and closed.
  ///   - loop: The daemon's loop, which the server's watches join.
  ///   - handler: Carries out requests; not retained (the daemon owns the server).
  ///   - logger: Where connections and misbehaving clients are logged.
  /// - Throws: `DaemonError` with exit code 69 when the socket cannot be created: when
  ///   another scoreboardd answers at `path`, or something other than a stale socket of
  ///   this user is there.
  public init(
    path: String = ControlServer.defaultPath, permissions: mode_t = 0o660,
    maximumClients: Int = 8, loop: PollLoop, handler: any ControlHandler, logger: Logger
  ) throws(DaemonError) {
    precondition(maximumClients > 0, "a control socket needs room for one client")
    do {
      listener = try UnixListener(path: path, permissions: permissions)
    } catch let error as SocketPathTaken where error.reason == .live {
      throw DaemonError(
        "control socket \(path): another scoreboardd is running (it answers on this socket)",
        exitCode: .unavailable)
    } catch {
      throw DaemonError("control socket: \(error)", exitCode: .unavailable)
    }
    self.maximumClients = maximumClients
    self.loop = loop
    self.handler = handler
    self.logger = logger
    listen()
  }

  deinit {
    close()
  }

  /// How many clients are connected.
  public var clientCount: Int {
    clients.count
  }

  /// Whether a client watches events: when none does, there is nothing to broadcast.
  public var hasWatchers: Bool {
    clients.contains(where: \.isWatching)
  }

  /// Whether a client's lines wait for `answerDeferred()`: the loop's next round should
  /// come at once.
  public var hasDeferredLines: Bool {
    clients.contains(where: \.hasDeferredLines)
  }

  /// Answers the lines that were left for a later round, until something more urgent
  /// comes again.
  public func answerDeferred() {
    for client in clients where client.hasDeferredLines {
      client.hasDeferredLines = false
      answerLines(of: client)
      if !client.isClosed {
        flush(client)
      }
    }
  }

  /// Sends `eventLine` (without its newline, such as `ControlEvent.line`) to every client
  /// that sent `watch`. A watcher whose unread events pass `outputLimit` is disconnected.
  public func broadcast(_ eventLine: String) {
    for client in clients where client.isWatching {
      queue(eventLine, for: client)
      if !client.isClosed {
        flush(client)
      }
    }
  }

  /// Disconnects every client and removes the socket file; calling it again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    if let listenerToken {
      loop.removeWatch(listenerToken)
    }
    listenerToken = nil
    listener.close()
    for client in clients {
      closeClient(client)
    }
  }

  // MARK: - Clients coming and going

  private func listen() {
    listenerToken = loop.watch(listener.fileDescriptor, for: .readable) { [unowned self] _ in
      self.acceptClients()
    }
  }

  private func acceptClients() {
    while !isClosed {
      let accepted: UnixConnection?
      do {
        accepted = try listener.accept()
      } catch {
        // Out of descriptors or memory: the listener stays readable, so watching it would
        // spin. A client leaving frees a descriptor and resumes accepting.
        logger.error("control socket: \(error); accepting again once a client leaves")
        if let listenerToken {
          loop.removeWatch(listenerToken)
        }
        listenerToken = nil
        return
      }
      guard let connection = accepted else { return }
      clientsAccepted += 1
      let name = "control client \(clientsAccepted)"
      guard clients.count < maximumClients else {
        logger.log(
          .warning, throttle: "control clients",
          "\(name) refused: \(maximumClients) clients are connected")
        // A new socket has room for a line; if not, the client just sees the close.
        let refusal = Array((ControlResponse.error("too many clients").line + "\n").utf8)
        _ = try? refusal.withUnsafeBytes { try connection.write($0) }
        connection.close()
        continue
      }
      let client = Client(name: name, connection: connection)
      clients.append(client)
      logger.debug("\(client.name) connected")
      updateWatch(client)
    }
  }

  private func closeClient(_ client: Client) {
    guard !client.isClosed else { return }
    client.isClosed = true
    if let token = client.token {
      loop.removeWatch(token)
    }
    client.connection.close()
    clients.removeAll { $0 === client }
    logger.debug("\(client.name) disconnected")
    if listenerToken == nil, !isClosed {
      logger.info("control socket: accepting connections again")
      listen()
    }
  }

  /// Tells the client what it did wrong and disconnects it.
  private func disconnect(_ client: Client, because message: String) {
    logger.log(.notice, throttle: "control clients", "\(client.name): \(message); disconnected")
    queue(ControlResponse.error(message).line, for: client)
    if !client.isClosed {
      flush(client)
    }
    closeClient(client)
  }

  /// Watches the client for what it waits for: requests until its input ends, room to
  /// write while output waits.
  private func updateWatch(_ client: Client) {
    var events: PollLoop.Events =
      client.inputEnded || client.awaitsAnswer || client.hasDeferredLines ? [] : .readable
    if !client.output.isEmpty {
      events.insert(.writable)
    }
    guard client.token == nil || events != client.watchedEvents else { return }
    client.watchedEvents = events
    client.token = loop.watch(client.connection.fileDescriptor, for: events) {
      [unowned self] events in
      self.service(client, events)
    }
  }

  // MARK: - Requests and answers

  private func service(_ client: Client, _ events: PollLoop.Events) {
    if events.contains(.writable) || client.inputEnded {
      flush(client)
    }
    if !client.isClosed, !client.inputEnded, !client.awaitsAnswer, !client.hasDeferredLines,
      !events.isDisjoint(with: [.readable, .hangUp, .error])
    {
      readRequests(client)
    }
  }

  /// Reads what the client sent (at most `readSize` bytes), answers each whole line and
  /// writes the answers.
  private func readRequests(_ client: Client) {
    var chunk = [UInt8](repeating: 0, count: Self.readSize)
    let count: Int
    do {
      count = try chunk.withUnsafeMutableBytes { try client.connection.read(into: $0) }
    } catch let error as IOError where error.errno == .wouldBlock {
      return
    } catch {
      logger.debug("\(client.name): \(error)")
      closeClient(client)
      return
    }
    if count == 0 {
      // The client has sent everything: a last line may lack its newline.
      client.inputEnded = true
      if !client.input.isEmpty {
        client.input.append(UInt8(ascii: "\n"))
      }
    } else {
      client.input += chunk[..<count]
    }
    answerLines(of: client)
    if !client.isClosed {
      flush(client)
    }
  }

  /// Answers every whole line of the client's input, in order, until one's answer is to
  /// come later, or until something more urgent waits after the first: the rest is
  /// deferred to `answerDeferred()`.
  private func answerLines(of client: Client) {
    var start = client.input.startIndex
    var answered = 0
    while !client.isClosed, !client.awaitsAnswer,
      let newline = client.input[start...].firstIndex(of: UInt8(ascii: "\n"))
    {
      if answered > 0, handler?.urgentWorkWaits ?? false {
        client.hasDeferredLines = true
        break
      }
      answered += 1
      var line = client.input[start..<newline]
      start = newline + 1
      if line.last == UInt8(ascii: "\r") {
        line = line.dropLast()
      }
      guard line.count <= Self.maximumLineLength else {
        disconnect(client, because: "line too long")
        return
      }
      guard let text = String(validating: line, as: UTF8.self) else {
        disconnect(client, because: "invalid UTF-8")
        return
      }
      answer(text, from: client)
    }
    guard !client.isClosed else { return }
    client.input.removeSubrange(..<start)
    // Room for a line of the greatest length and the `\r` of its line end.
    if !client.hasDeferredLines, client.input.count > Self.maximumLineLength + 1 {
      disconnect(client, because: "line too long")
    }
  }

  private func answer(_ line: String, from client: Client) {
    let request: ControlRequest
    do {
      request = try ControlRequest(parsing: line)
    } catch {
      logger.debug("\(client.name): \(error)")
      queue(ControlResponse.error(error.description).line, for: client)
      return
    }
    logger.debug("\(client.name): \(request)")
    switch request {
    case .help:
      queue(ControlResponse.ok(ControlRequest.helpText).line, for: client)
    case .watch:
      client.isWatching = true
      queue(ControlResponse.ok("watching").line, for: client)
    default:
      guard let handler else {
        queue(ControlResponse.error("scoreboardd is stopping").line, for: client)
        return
      }
      client.awaitsAnswer = true
      client.isInHandler = true
      handler.handle(request, client: client.name) { [weak self, weak client] response in
        guard let self, let client else { return }
        self.take(response, for: client)
      }
      client.isInHandler = false
    }
  }

  /// The handler's answer to the client's request: queued, and when it came later, the
  /// client's next requests are read again.
  private func take(_ response: ControlResponse, for client: Client) {
    guard client.awaitsAnswer else { return }
    client.awaitsAnswer = false
    queue(response.line, for: client)
    guard !client.isInHandler, !client.isClosed else { return }
    answerLines(of: client)
    if !client.isClosed {
      flush(client)
    }
  }

  /// Adds `line` and a newline to the client's output. Past `outputLimit` bytes, what
  /// the socket takes is written at once, and a client that still has more than
  /// `outputLimit` bytes waiting (it does not read) is disconnected.
  private func queue(_ line: String, for client: Client) {
    guard !client.isClosed else { return }
    // One answer is one line, whatever the handler returned.
    let lineBreaks: Set<UInt8> = [UInt8(ascii: "\n"), UInt8(ascii: "\r")]
    client.output += line.utf8.map { lineBreaks.contains($0) ? UInt8(ascii: " ") : $0 }
    client.output.append(UInt8(ascii: "\n"))
    guard client.output.count > Self.outputLimit else { return }
    flush(client)
    if !client.isClosed, client.output.count > Self.outputLimit {
      logger.log(
        .notice, throttle: "control clients",
        "\(client.name): \(client.output.count) bytes wait for it to read; disconnected")
      closeClient(client)
    }
  }

  /// Writes as much waiting output as the socket takes, then closes a client that is
  /// done.
  private func flush(_ client: Client) {
    while !client.output.isEmpty {
      let written: Int
      do {
        written = try client.output.withUnsafeBytes { try client.connection.write($0) }
      } catch let error as IOError where error.errno == .wouldBlock {
        break
      } catch {
        logger.debug("\(client.name): \(error)")
        closeClient(client)
        return
      }
      client.output.removeFirst(written)
    }
    if client.isDone {
      closeClient(client)
    } else {
      updateWatch(client)
    }
  }
}
