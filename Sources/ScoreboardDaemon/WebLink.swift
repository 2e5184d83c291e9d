import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardMQTT
import ScoreboardSettings
import ScoreboardWeb

/// The board's web server in the daemon's loop: its pages, the board as JSON
/// (`/api/state`, `/api/layout`, `/api/vmix`) and as a stream of Server-Sent Events
/// (`/api/events`: the layout and the state on connecting, then the state after every
/// change and every event a `watch` client gets). Served after the displays in a round;
/// no web client is ever on the way from a key to the wire.
final class WebLink {
  let settings: WebSettings
  let server: WebServer
  let logger: Logger
  let clock: any TimeSource
  /// The pages by the path they are served at.
  private let pages: [String: (contentType: String, bytes: [UInt8])]
  /// The open event streams.
  private var streams: Set<UInt64> = []
  private var nextKeepAlive: Instant
  /// When answers were queued since the server last ran: it runs at the round's end.
  var answersQueuedAt: Instant?
  /// What the streams are told next: the frames (if they changed by more than running
  /// clocks), the state (if it changed), then these events in order.
  private var framesHeld = false
  private var stateHeld = false
  /// Writes the state documents, rewriting only the fields that changed.
  private var stateWriter = StateDocumentWriter()
  private var eventsHeld: [[UInt8]] = []
  /// When the streams' news was first held back: it goes out `pageDelay` later.
  private var heldSince: Instant?
  /// When the server's own timeout comes, as `deadline` last read it.
  private var serverDueAt: Instant?
  /// The board and the instant of the model, when a request needs them.
  let board: () -> (Scoreboard, Instant)
  /// Carries out a paired device's request as the control socket would (the client's
  /// name, as `web scorer`), and answers it once, now or once saved.
  let command: (ControlRequest, String, @escaping (ControlResponse) -> Void) -> Void
  /// The pairing code and the paired devices.
  let access: WebAccess
  /// Gets the code to show on the displays when pairing is armed, nil when it ends.
  var pairingChanged: (String?) -> Void = { _ in }
  /// The last changes as JSON objects, oldest first, for `/api/changes`.
  private var recentChanges: [String] = []
  /// How many changes `/api/changes` lists.
  static let recentChangeLimit = 20

  /// How often a quiet stream gets a comment line.
  static let keepAliveInterval = Duration.seconds(15)
  /// How long the pages' news waits after a change. The loop sleeps meanwhile, so the
  /// displays' bytes leave first (a pseudo-terminal's, or a USB serial adapter's, are
  /// sent by a kernel worker that mostly runs once the writer leaves the CPU), and the
  /// changes of that time reach the pages as one: the frames and the state as they are
  /// then, the events in order.
  static let pageDelay = Duration.milliseconds(1)
  /// The files of the pages folder, and the paths they are served at.
  static let pageFiles: [(path: String, file: String)] = [
    ("/", "console.html"), ("/console.js", "console.js"),
    ("/board", "board.html"), ("/board.js", "board.js"), ("/overlay", "overlay.html"),
    ("/overlay.js", "overlay.js"), ("/scoreboard.js", "scoreboard.js"), ("/style.css", "style.css"),
  ]

  /// Reads the pages and starts listening; `board` gives the board and the model's
  /// instant when a request needs them.
  ///
  /// - Throws: `DaemonError` (exit code 78) naming a page that cannot be read, or why
  ///   the server cannot listen.
  init(
    settings: WebSettings, stateFile: String?, logger: Logger, clock: any TimeSource,
    board: @escaping () -> (Scoreboard, Instant),
    command: @escaping (ControlRequest, String, @escaping (ControlResponse) -> Void) -> Void
  ) throws(DaemonError) {
    self.settings = settings
    self.board = board
    self.command = command
    access = WebAccess(stateFile: stateFile, logger: logger, clock: clock)
    self.logger = logger
    self.clock = clock
    try Self.checkLibrary()
    pages = try Self.readPages(settings)
    nextKeepAlive = clock.now() + Self.keepAliveInterval
    var handle: (WebServer.Exchange) -> Void = { _ in }
    var closed: (UInt64) -> Void = { _ in }
    do {
      server = try WebServer(
        address: settings.address, port: settings.port, connectionLimit: settings.connectionLimit,
        connectionsPerAddress: settings.connectionsPerAddress, idleTimeoutSeconds: 30,
        handler: { handle($0) }, streamClosed: { closed($0) })
    } catch {
      throw DaemonError(
        "[web] listen = \(settings.listenText): \(error)"
          + Self.advice(for: error.description, port: settings.port), exitCode: .unavailable)
    }
    handle = { [unowned self] exchange in self.handle(exchange) }
    closed = { [unowned self] stream in self.streams.remove(stream) }
    logger.notice(
      "web: serving the console on http://\(settings.listenText)/ and the board on "
        + "http://\(settings.listenText)/board")
  }

  /// What to do about a failure to listen, or nothing.
  static func advice(for reason: String, port: Int) -> String {
    if reason.contains("Address family not supported") || reason.contains("Operation not permitted")
    {
      return " (" + MQTTLink.networkAdvice + ")"
    }
    if reason.contains("Permission denied"), port < 1024 {
      return " (ports below 1024 need the drop-in web-port-80.conf: sudo ln -sf "
        + "/usr/share/scoreboardd/web-port-80.conf /etc/systemd/system/scoreboardd.service.d/ "
        + "&& sudo systemctl daemon-reload && sudo systemctl restart scoreboardd; "
        + "scoreboardd(8))"
    }
    if reason.contains("Address already in use") {
      return " (another program listens there: choose another port, or stop it; "
        + "sudo ss -ltnp shows which)"
    }
    return ""
  }

  /// Checks that libmicrohttpd can be loaded.
  ///
  /// - Throws: `DaemonError` (exit code 78) naming the package to install.
  static func checkLibrary() throws(DaemonError) {
    if let problem = WebServer.libraryProblem {
      throw DaemonError("[web]: \(problem)", exitCode: .configuration)
    }
  }

  /// The pages of `settings`' folder, by the path each is served at.
  ///
  /// - Throws: `DaemonError` (exit code 78) naming a page that cannot be read.
  static func readPages(_ settings: WebSettings) throws(DaemonError)
    -> [String: (contentType: String, bytes: [UInt8])]
  {
    var pages: [String: (contentType: String, bytes: [UInt8])] = [:]
    for (path, file) in pageFiles {
      let location = settings.pages + "/" + file
      do {
        pages[path] = (
          contentType(of: file), try FileDescriptor.readRegularFile(location, limit: 1 << 20)
        )
      } catch {
        throw DaemonError(
          "[web] pages: cannot read \(location): \(error) (the package installs the pages to "
            + "\(WebSettings.installedPages))", exitCode: .configuration)
      }
    }
    return pages
  }

  /// Whether an event stream is open.
  var hasStreams: Bool { !streams.isEmpty }

  /// The descriptor the loop watches.
  var descriptor: FileDescriptor { FileDescriptor(rawValue: server.descriptor) }

  /// The descriptor of the event streams' sockets, watched for clients that leave.
  var streamsDescriptor: FileDescriptor { FileDescriptor(rawValue: server.streamsDescriptor) }

  /// Ends the streams whose clients left while they waited for events, so that their
  /// connections (and their places under the per-address limit) are freed at once; the
  /// server runs at the round's end.
  func endStreamsLeft(at now: Instant) {
    if server.endStreamsLeft() > 0 {
      answersQueuedAt = answersQueuedAt ?? now
    }
  }

  /// The port the server listens on.
  var port: Int { server.port }

  /// When the server, the streams' held news or their keep-alive is next due: now, when
  /// answers are queued.
  var deadline: Instant? {
    if let answersQueuedAt { return answersQueuedAt }
    if let heldSince { return heldSince + Self.pageDelay }
    var serverDue = server.timeoutMilliseconds.map { clock.now() + .milliseconds($0) }
    if let expires = access.pairing.expires {
      serverDue = serverDue.map { min($0, expires) } ?? expires
    }
    serverDueAt = serverDue
    guard !streams.isEmpty else { return serverDue }
    return serverDue.map { min($0, nextKeepAlive) } ?? nextKeepAlive
  }

  /// Whether the server is due at `now` without an event: answers queued, the streams'
  /// held news, its own timeout (as `deadline` last read it), a keep-alive.
  func isDue(at now: Instant) -> Bool {
    answersQueuedAt != nil || heldSince.map { $0 + Self.pageDelay <= now } == true
      || serverDueAt.map { $0 <= now } == true || (!streams.isEmpty && now >= nextKeepAlive)
  }

  /// Serves what is ready, tells the streams the news held `pageDelay`, and keeps quiet
  /// streams open.
  func serve(at now: Instant) {
    if let heldSince, heldSince + Self.pageDelay <= now {
      sendHeld()
    }
    if now >= nextKeepAlive {
      nextKeepAlive = now + Self.keepAliveInterval
      send(BoardFeed.keepAlive)
    }
    answersQueuedAt = nil
    serverDueAt = nil
    if access.pairing.armed != nil, access.pairing.code(at: now) == nil {
      access.disarm()
      logger.notice("web: the pairing code expired")
      pairingChanged(nil)
    }
    server.serve()
  }

  /// Arms a pairing code for `fields` (nil: every field) and shows it on the displays;
  /// the code.
  ///
  /// - Throws: `IOError` when the kernel gives no random bytes.
  func armPairing(fields: [String]?, by source: String, at now: Instant) throws -> String {
    let code = try access.arm(fields: fields, at: now)
    let which = fields.map { "for \($0.joined(separator: " "))" } ?? "for every field"
    logger.notice(
      "web: pairing armed \(which) by \(source); the code shows on the displays for "
        + "\(Pairing.codeLifetime.components.seconds / 60) minutes")
    pairingChanged(code)
    return code
  }

  /// Disarms the pairing code and takes it off the displays.
  func disarmPairing(by source: String) {
    guard access.pairing.armed != nil else { return }
    access.disarm()
    logger.notice("web: pairing disarmed by \(source)")
    pairingChanged(nil)
  }

  /// Notes a change a `watch` client is told of (`event value home 12`) and who made it,
  /// for the recent changes the console lists.
  func noteChange(_ line: String, source: String?) {
    guard let source, !source.hasPrefix("mirror") else { return }
    let words = line.hasPrefix("event ") ? String(line.dropFirst(6)) : line
    guard
      words.hasPrefix("value ") || words.hasPrefix("clock ") || words.hasPrefix("brightness ")
        || words.hasPrefix("blank ")
    else { return }
    let what = words.hasPrefix("value ") ? String(words.dropFirst(6)) : words
    let change = JSONText.object([
      ("at_ms", String(clock.wallClockMilliseconds())), ("what", JSONText.string(what)),
      ("by", JSONText.string(source)),
    ])
    recentChanges.append(change)
    if recentChanges.count > Self.recentChangeLimit {
      recentChanges.removeFirst(recentChanges.count - Self.recentChangeLimit)
    }
    hold(BoardFeed.event("change", data: change))
  }

  /// What the streams were last told of the frames (nil: nothing yet).
  private var lastFrames: BoardFeed.SteadyFrames?

  /// Tells every stream, `pageDelay` later, the displays' frames when they changed by
  /// more than a running clock's time (the pages run clocks themselves): after every
  /// step, as the displays are shown.
  func showFrames(_ board: Scoreboard, at now: Instant) {
    guard !streams.isEmpty else {
      lastFrames = nil
      return
    }
    let steady = BoardFeed.steadyFrames(of: board, at: now)
    guard steady != lastFrames else { return }
    lastFrames = steady
    framesHeld = true
    heldSince = heldSince ?? now
  }

  /// Tells every stream the board's new state, `pageDelay` later.
  func publish(_ board: Scoreboard, at now: Instant) {
    guard !streams.isEmpty else { return }
    stateHeld = true
    heldSince = heldSince ?? now
  }

  /// Tells every stream an event line as `watch` clients get it (`value home 12`),
  /// `pageDelay` later.
  func broadcast(_ line: String) {
    let words = line.hasPrefix("event ") ? String(line.dropFirst(6)) : line
    hold(BoardFeed.event("watch", data: words))
  }

  /// Closes every connection and the listening socket.
  func close() {
    streams.removeAll()
    server.stop()
  }

  /// Holds an event for every stream until the held news goes out.
  private func hold(_ event: @autoclosure () -> [UInt8]) {
    guard !streams.isEmpty else { return }
    eventsHeld.append(event())
    heldSince = heldSince ?? clock.now()
  }

  /// Sends the held news: the frames and the state of the board now, then the events.
  private func sendHeld() {
    let (board, now) = board()
    if framesHeld {
      send(BoardFeed.event("frames", data: BoardFeed.frames(of: board, at: now).json))
    }
    if stateHeld {
      send(BoardFeed.event("state", data: document(of: board, at: now)))
    }
    for event in eventsHeld {
      send(event)
    }
    framesHeld = false
    stateHeld = false
    eventsHeld.removeAll(keepingCapacity: true)
    heldSince = nil
  }

  private func send(_ bytes: [UInt8]) {
    for stream in streams where !server.send(bytes, to: stream) {
      streams.remove(stream)
      logger.info("web: an event stream's client did not read; dropped")
    }
  }

  private func document(of board: Scoreboard, at now: Instant) -> String {
    stateWriter.json(of: board, at: now, wallClockMilliseconds: clock.wallClockMilliseconds())
  }

  // MARK: - Requests

  private func handle(_ exchange: WebServer.Exchange) {
    if exchange.method == "POST" {
      handleChange(exchange)
      return
    }
    guard exchange.method == "GET" || exchange.method == "HEAD" else {
      respond(
        exchange, 405, text: "only GET, HEAD and POST are served here\n",
        headers: [("Allow", "GET, HEAD, POST")])
      return
    }
    let (board, now) = board()
    switch exchange.path {
    case "/api/state":
      respondJSON(exchange, document(of: board, at: now))
    case "/api/layout":
      respondJSON(exchange, BoardFeed.layout(of: board.spec, name: settings.name))
    case "/api/vmix":
      respondJSON(exchange, BoardFeed.vmix(of: board, at: now))
    case "/api/changes":
      respondJSON(exchange, "[" + recentChanges.joined(separator: ",") + "]")
    case "/api/session":
      respondJSON(exchange, session(access.device(cookieHeader: exchange.cookie), at: now))
    case "/api/events":
      let first =
        BoardFeed.event("layout", data: BoardFeed.layout(of: board.spec, name: settings.name))
        + BoardFeed.event("state", data: document(of: board, at: now))
        + BoardFeed.event("frames", data: BoardFeed.frames(of: board, at: now).json)
      if let stream = exchange.openStream(first: first) {
        streams.insert(stream)
      }
    case "/favicon.ico":
      // No icon: a browser asks on every page; an empty answer keeps its log clean.
      exchange.respond(204, contentType: "image/x-icon", body: [], headers: Self.pageHeaders)
    case "/api/command", "/api/pair", "/api/unpair":
      respond(
        exchange, 405, text: "a change is a POST: no GET changes anything\n",
        headers: [("Allow", "POST")])
    case "/board"
    where settings.boardPage == .operators && access.device(cookieHeader: exchange.cookie) == nil:
      respond(
        exchange, 403,
        text: "this board's page is for its paired devices only (board-page = operators)\n")
    default:
      guard let page = pages[exchange.path] else {
        respond(exchange, 404, text: "no page at \(exchange.path.prefix(200))\n")
        return
      }
      exchange.respond(
        200, contentType: page.contentType, body: page.bytes, headers: Self.pageHeaders)
    }
  }

  /// `{"paired":true,"device":"scorer","fields":null}` or
  /// `{"paired":false,"pairing":true}`.
  private func session(_ device: PairedDevices.Device?, at now: Instant) -> String {
    guard let device else {
      return JSONText.object([
        ("paired", "false"), ("pairing", access.pairing.code(at: now) != nil ? "true" : "false"),
      ])
    }
    return JSONText.object([
      ("paired", "true"), ("device", JSONText.string(device.name)),
      ("fields", device.fields.map { JSONText.array($0.map(JSONText.string)) } ?? "null"),
    ])
  }

  private static let pageHeaders = [
    ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", "default-src 'self'; frame-ancestors *"),
    ("Referrer-Policy", "no-referrer"),
  ]

  private func respondJSON(_ exchange: WebServer.Exchange, _ json: String) {
    exchange.respond(
      200, contentType: "application/json", body: Array(json.utf8),
      headers: [
        ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
        ("Access-Control-Allow-Origin", "*"),
      ])
  }

  func respond(
    _ exchange: WebServer.Exchange, _ status: Int, text: String, headers: [(String, String)] = []
  ) {
    exchange.respond(
      status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8),
      headers: headers + [("X-Content-Type-Options", "nosniff")])
  }

  private static func contentType(of file: String) -> String {
    if file.hasSuffix(".html") { return "text/html; charset=utf-8" }
    if file.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
    if file.hasSuffix(".css") { return "text/css; charset=utf-8" }
    return "application/octet-stream"
  }
}
