@preconcurrency import Glibc
import TestSupport
import Testing

/// The board's web server in the real daemon, over real HTTP: the board as JSON and as a
/// stream of events, the pages, and requests it refuses.
@Suite(
  .serialized,
  .enabled(
    if: access("/usr/include/microhttpd.h", R_OK) == 0
      || dlopen("libmicrohttpd.so.12", RTLD_NOW) != nil,
    "needs libmicrohttpd (make deps)"))
struct WebTests {
  /// The pages in the source tree.
  static let pages: String = {
    let file = #filePath
    var folder = file[..<file.lastIndex(of: "/")!]
    folder = folder[..<folder.lastIndex(of: "/")!]
    folder = folder[..<folder.lastIndex(of: "/")!]
    return folder + "/web"
  }()

  static func configuration(folder: TemporaryFolder, port: Int, extra: String = "") -> String {
    """
    \(ScoreboardSection.text(in: folder, logLevel: "info"))

    [display main]
    driver = terminal
    digits = 9

    [field home]
    position = 1
    digits = 2

    [field away]
    position = 3
    digits = 2

    [field game]
    type = clock
    position = 5
    length = 10:00

    [web]
    listen = 127.0.0.1:\(port)
    pages = \(pages)
    name = Court 1
    \(extra)
    """
  }

  /// A daemon serving the board on a free port, once it says so.
  static func start(folder: TemporaryFolder, extra: String = "") throws -> (DaemonProcess, Int) {
    let port = try MosquittoBroker.freePort()
    let path = try folder.write("web.conf", configuration(folder: folder, port: port, extra: extra))
    let daemon = try DaemonProcess(arguments: ["--config", path], folder: folder)
    try #require(
      daemon.waitForStderr {
        $0.contains("and the board on http://127.0.0.1:\(port)/board")
      },
      "\(daemon.stderrText)")
    return (daemon, port)
  }

  @Test func theBoardIsServedAsJSONAsEventsAndAsPages() throws {
    let folder = try TemporaryFolder()
    let (daemon, port) = try Self.start(folder: folder)
    let control = try ControlClient(path: folder.path(of: "control"))
    let http = try HTTPClient(port: port)

    let state = try #require(http.request("/api/state"))
    #expect(state.status == 200)
    #expect(state.headers["content-type"] == "application/json")
    #expect(state.body.hasPrefix(#"{"fields":{"home":{"shown":"0","value":0},"#))

    #expect(control.request("set home 12") == "ok home 12")
    #expect(http.request("/api/state")?.body.contains(#""home":{"shown":"12","value":12}"#) == true)
    #expect(http.request("/api/vmix")?.body == #"[{"home":"12","away":"0","game":"10:00"}]"#)
    let layout = try #require(http.request("/api/layout"))
    #expect(layout.body.hasPrefix(#"{"name":"Court 1","fields":[{"name":"home","label":"HOME""#))

    // The stream: the layout and the state on connecting, then every change.
    let events = try HTTPClient(port: port)
    events.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    let head = try #require(events.response())
    #expect(head.status == 200)
    #expect(head.headers["content-type"] == "text/event-stream")
    #expect(events.readStream { $0.contains("event: layout") && $0.contains("event: state") })
    #expect(control.request("add away +1") == "ok away 1")
    #expect(
      events.readStream {
        $0.contains("event: watch\ndata: value away 1\n")
          && $0.contains(#"data: {"fields":{"home":{"shown":"12","value":12},"away":{"shown":"1""#)
      }, "\(events.streamText)")
    #expect(control.request("start game")?.hasPrefix("ok game 10:00") == true)
    #expect(events.readStream { $0.contains("data: clock game started 10:00.0") })

    for (path, type) in [
      ("/", "text/html"), ("/console.js", "text/javascript"), ("/board", "text/html"),
      ("/overlay", "text/html"), ("/scoreboard.js", "text/javascript"),
      ("/style.css", "text/css"),
    ] {
      let page = try #require(http.request(path), "\(path)")
      #expect(page.status == 200, "\(path)")
      #expect(page.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
    }
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  /// The frames on the stream: the displays' cells as the wire has them, sent when they
  /// change, but not with every second of a running clock (the pages run clocks).
  @Test func framesComeWhenTheBoardChangesNotWithEverySecondOfAClock() throws {
    let folder = try TemporaryFolder()
    let (daemon, port) = try Self.start(folder: folder)
    let control = try ControlClient(path: folder.path(of: "control"))
    let events = try HTTPClient(port: port)
    events.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    #expect(events.response()?.status == 200)
    // home 0 and away 0 (a blank placeholder, then 0 = 63), the clock 10:00 with its colon
    // after cell 5 (whose point is lit too, for displays without a colon), cell 8 dark.
    let first = #"data: {"displays":{"main":{"cells":[0,63,0,63,6,191,63,63,0],"colons":[5],"#
    #expect(events.readStream { $0.contains(first) }, "\(events.streamText)")
    #expect(control.request("set home 12") == "ok home 12")
    let changed = #"data: {"displays":{"main":{"cells":[6,91,0,63,"#
    #expect(events.readStream { $0.contains(changed) }, "\(events.streamText)")
    #expect(control.request("start game")?.hasPrefix("ok game 10:00") == true)
    let framesBefore = events.streamText.ranges(of: "event: frames").count
    // The clock runs for 2.5 s: three new seconds on the wire, no new frames here.
    #expect(!events.readStream(timeout: 2.5) { $0.contains("data: clock game stopped") })
    #expect(events.streamText.ranges(of: "event: frames").count == framesBefore + 1)
    #expect(control.request("stop game")?.hasPrefix("ok game 9:5") == true)
    #expect(events.readStream { $0.ranges(of: "event: frames").count > framesBefore + 1 })
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func writesUnknownPathsAndOversizedRequestsAreRefused() throws {
    let folder = try TemporaryFolder()
    let (daemon, port) = try Self.start(folder: folder)
    let control = try ControlClient(path: folder.path(of: "control"))
    let http = try HTTPClient(port: port)
    for method in ["POST", "PUT", "DELETE"] {
      let answer = http.request("/api/state", method: method, body: "set home 99")
      #expect(answer?.status == 405, "\(method)")
      #expect(answer?.headers["allow"] == (method == "POST" ? "GET, HEAD" : "GET, HEAD, POST"))
    }
    for path in [
      "/../etc/passwd", "/%2e%2e/etc/passwd", "/board%00.html", "/web/board.html",
      "/board.html", "//etc/passwd", "/%ff%fe",
    ] {
      #expect(http.request(path)?.status == 404, "\(path)")
    }
    let oversized = try HTTPClient(port: port)
    #expect(
      oversized.request("/api/state", method: "POST", body: String(repeating: "x", count: 5_000))?
        .status
        == 413)
    let longHeader = try HTTPClient(port: port)
    let answer = longHeader.request(
      "/api/state", headers: ["X-Filler": String(repeating: "y", count: 40_000)])
    #expect(answer.map { $0.status >= 400 } ?? longHeader.isClosed(within: 5))
    #expect(control.request("get home") == "ok 0", "nothing changed, the board answers")
    #expect(http.request("/api/state")?.status == 200, "the server serves on")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func aStreamWhoseClientDoesNotReadIsDropped() throws {
    let folder = try TemporaryFolder()
    let probe = try KeypadProbe(in: folder)
    let (daemon, port) = try Self.start(folder: folder, extra: probe.configuration)
    let control = try ControlClient(path: folder.path(of: "control"))
    let stalled = try HTTPClient(port: port, receiveBuffer: 4096)
    stalled.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    #expect(waitUntil { daemon.stderrText.contains("web:") })
    // Each change queues its state (about 300 bytes) and its event: 2,000 changes are
    // more than the 256 KiB a stream keeps, beyond what the sockets hold.
    var changes = 0
    while changes < 2_000, !daemon.stderrText.contains("did not read; dropped") {
      changes += 1
      #expect(control.request("set home \(changes % 100)") == "ok home \(changes % 100)")
      if changes % 100 == 0 {
        _ = daemon.waitForStderr(timeout: 0.01) { $0.contains("dropped") }
        #expect(probe.press(daemon), "after \(changes) changes")
      }
    }
    #expect(
      daemon.waitForStderr { $0.contains("web: an event stream's client did not read; dropped") })
    #expect(stalled.isClosed(within: 10), "the stalled client's connection is closed")
    let http = try HTTPClient(port: port)
    #expect(http.request("/api/state")?.status == 200)
    #expect(control.request("get home") == "ok \(changes % 100)")
    probe.report("a stream's client did not read")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  /// A page reloaded again and again (or twenty phones behind one address) must not
  /// use up its address's connections: streams whose clients left end at once, not at
  /// the next event or keep-alive (15 s on a quiet board).
  @Test func streamsWhoseClientsLeaveFreeTheirPlacesAtOnce() throws {
    let folder = try TemporaryFolder()
    let (daemon, port) = try Self.start(folder: folder)
    var pages: [HTTPClient] = []
    for _ in 0..<20 {
      let page = try HTTPClient(port: port, from: "127.0.0.6")
      page.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      #expect(page.response()?.status == 200)
      pages.append(page)
    }
    let refused = try HTTPClient(port: port, from: "127.0.0.6")
    #expect(refused.isClosed(within: 2), "the 21st connection of the address is refused")
    pages.removeAll()
    // No change on the board, no keep-alive due: the places are free within a second.
    let served = waitUntil(timeout: 2) {
      (try? HTTPClient(port: port, from: "127.0.0.6"))?.request("/api/state", timeout: 0.2)?
        .status == 200
    }
    #expect(served, "a new page of the address is served")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func slowClientsOfOneAddressLeaveTheBoardToEveryoneElse() throws {
    let folder = try TemporaryFolder()
    let probe = try KeypadProbe(in: folder)
    let (daemon, port) = try Self.start(folder: folder, extra: probe.configuration)
    let control = try ControlClient(path: folder.path(of: "control"))
    // 1,000 connections from one machine (127.0.0.2), each sending half a request and
    // then nothing (slowloris): the server takes 20 of them (connections-per-address).
    var slow: [HTTPClient] = []
    for _ in 0..<1_000 {
      let client = try HTTPClient(port: port, from: "127.0.0.2")
      client.send("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
      slow.append(client)
    }
    // Everyone else is served, and the board answers at once.
    for value in 1...20 {
      #expect(control.request("set home \(value)") == "ok home \(value)")
      let http = try HTTPClient(port: port)
      #expect(
        http.request("/api/state", timeout: 2)?.body.contains(#""home":{"shown":"\#(value)""#)
          == true)
      #expect(probe.press(daemon))
    }
    let refused = slow.filter { $0.isClosed(within: 0.005) }.count
    #expect(refused >= 1_000 - 20, "\(refused) of the slow connections were closed at once")
    slow.removeAll()
    #expect(control.request("get home") == "ok 20")
    probe.report("1,000 slow connections were held")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func checkConfigNamesAPageThatCannotBeRead() throws {
    let folder = try TemporaryFolder()
    let good = try folder.write("good.conf", Self.configuration(folder: folder, port: 8080))
    let valid = try DaemonProcess(arguments: ["--check-config", good])
    #expect(valid.waitForLine { $0.hasSuffix("web pages on 127.0.0.1:8080)") } != nil)
    #expect(valid.waitForExit() == 0)
    let bad = try folder.write(
      "bad.conf",
      Self.configuration(folder: folder, port: 8080).replacing(
        "pages = \(Self.pages)", with: "pages = \(folder.path)/nowhere"))
    let refused = try DaemonProcess(arguments: ["--check-config", bad])
    #expect(refused.waitForExit() == 78)
    #expect(
      refused.stderrText.hasPrefix(
        "[web] pages: cannot read \(folder.path)/nowhere/console.html: "), "\(refused.stderrText)")
  }

  @Test func aPortInUseIsNamedAndTheBoardRunsWithoutItsWebServer() throws {
    let first = try TemporaryFolder()
    let (daemon, port) = try Self.start(folder: first)
    let second = try TemporaryFolder()
    let path = try second.write("web.conf", Self.configuration(folder: second, port: port))
    let board = try DaemonProcess(arguments: ["--config", path], folder: second)
    #expect(
      board.waitForStderr {
        $0.contains(
          "[web] listen = 127.0.0.1:\(port): cannot listen on 127.0.0.1 port \(port): "
            + "Address already in use (another program listens there")
          && $0.contains("the board runs without its web server until scoreboardd is reloaded")
      }, "\(board.stderrText)")
    // The keys, displays and control socket work on.
    let control = try ControlClient(path: second.path(of: "control"))
    #expect(control.request("set home 3") == "ok home 3")
    board.send(signal: SIGTERM)
    #expect(board.waitForExit() == 0)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
