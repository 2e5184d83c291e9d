@preconcurrency import Glibc
import TestSupport
import Testing

/// Hostile clients of the board's web server, against the real binary: malformed and
/// ambiguous requests (smuggling, bad bytes, the shapes of libmicrohttpd's 2025
/// advisories), and a hundred event streams coming and going at random while the board
/// is changed. After each: the daemon runs, answers its control socket, changed nothing
/// it was not asked to, and serves the next client.
@Suite(
  .serialized,
  .enabled(
    if: access("/usr/include/microhttpd.h", R_OK) == 0
      || dlopen("libmicrohttpd.so.12", RTLD_NOW) != nil,
    "needs libmicrohttpd (make deps)"))
struct WebHostileTests {
  /// Requests a client may send to crash or confuse a server: each is sent on a
  /// connection of its own, answered (4xx) or closed, and changes nothing.
  static let malformed: [(String, [UInt8])] = [
    (
      "two Content-Lengths",
      request("POST /api/command", ["Content-Length: 3", "Content-Length: 11"], "set home 99")
    ),
    (
      "Content-Length and chunked",
      request(
        "POST /api/command", ["Content-Length: 4", "Transfer-Encoding: chunked"], "0\r\n\r\n")
    ),
    (
      "a chunk size beyond any",
      request(
        "POST /api/command", ["Transfer-Encoding: chunked"], "fffffffffffffffff\r\nx\r\n0\r\n\r\n")
    ),
    (
      "a negative chunk size",
      request("POST /api/command", ["Transfer-Encoding: chunked"], "-5\r\nxxxxx\r\n0\r\n\r\n")
    ),
    (
      "a chunked body beyond the limit",
      request(
        "POST /api/command", ["Transfer-Encoding: chunked"],
        "1400\r\n" + String(repeating: "a", count: 5120) + "\r\n0\r\n\r\n")
    ),
    ("a negative Content-Length", request("POST /api/command", ["Content-Length: -1"], "")),
    (
      "a huge Content-Length",
      request("POST /api/command", ["Content-Length: 99999999999999999999"], "")
    ),
    (
      "header names of forbidden bytes",
      Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8) + Array(1...8) + [
        0x7F, 0x80, 0xFF,
      ] + Array(": x\r\n\r\n".utf8)
    ),
    (
      "a NUL in a header",
      Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\0b\r\n\r\n".utf8)
    ),
    ("a bare LF request", Array("GET /api/state HTTP/1.1\nHost: 127.0.0.1\n\n".utf8)),
    ("an HTTP/0.9 request", Array("GET /api/state\r\n\r\n".utf8)),
    ("an unknown version", Array("GET /api/state HTTP/7.3\r\nHost: 127.0.0.1\r\n\r\n".utf8)),
    ("no Host in HTTP/1.1", Array("GET /api/state HTTP/1.1\r\n\r\n".utf8)),
    (
      "two Hosts",
      Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n".utf8)
    ),
    (
      "a method of control bytes",
      Array("G\u{1}T /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    ),
    (
      "bad UTF-8 in the path",
      Array("GET /\u{FF}".utf8) + [0xC3, 0x28, 0xFF]
        + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    ),
    ("bad percent-encoding", Array("GET /%G1%%%2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)),
    (
      "an encoded traversal",
      Array("GET /..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    ),
    (
      "a query of empty names",
      Array("GET /api/state?&&=&==&%00=%00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    ),
    (
      "a multipart body (the post processor's)",
      request(
        "POST /api/pair", ["Content-Type: multipart/form-data; boundary="],
        "--\r\nContent-Disposition: form-data; name\r\n\r\n\r\n----")
    ),
    (
      "a form with no value",
      request(
        "POST /api/pair", ["Content-Type: application/x-www-form-urlencoded"], "code&name=&=&&%")
    ),
    (
      "Expect: 100-continue beyond the limit",
      request("POST /api/command", ["Expect: 100-continue", "Content-Length: 100000"], "")
    ),
    (
      "an absolute URI",
      Array("GET http://evil.example/api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    ),
    (
      "a continuation line",
      Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n b\r\n\r\n".utf8)
    ),
    (
      "a Cookie of garbage",
      Array(
        "POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\nCookie: ;;=;scoreboardd_device=;scoreboardd_device=zz\r\nContent-Length: 10\r\n\r\nset home 9"
          .utf8)
    ),
  ]

  static func request(_ line: String, _ headers: [String], _ body: String) -> [UInt8] {
    Array(
      (line + " HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
        + headers.map { $0 + "\r\n" }.joined() + "\r\n" + body).utf8)
  }

  @Test func malformedRequestsChangeNothingAndTheServerServesOn() throws {
    let folder = try TemporaryFolder()
    let probe = try KeypadProbe(in: folder)
    let (daemon, port) = try WebTests.start(folder: folder, extra: probe.configuration)
    let control = try ControlClient(path: folder.path(of: "control"))
    #expect(control.request("set home 5") == "ok home 5")
    // A paired device's cookie on every request: what a smuggled or misread request
    // would carry out, it could.
    let token = try WebPairingTests.pair(
      try HTTPClient(port: port), code: try WebPairingTests.armCode(control))
    let cookie = Array("Cookie: scoreboardd_device=\(token)\r\n".utf8)
    for (what, bytes) in Self.malformed {
      let client = try HTTPClient(port: port)
      // The cookie goes after the request line (but for the request of a cookie of its
      // own).
      let lineEnd = (bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count - 1) + 1
      let paired = what.hasPrefix("a Cookie") ? [] : cookie
      client.send(bytes: Array(bytes[..<lineEnd]) + paired + Array(bytes[lineEnd...]))
      #expect(probe.press(daemon), "a key while the server has \(what)")
      if let answer = client.response(timeout: 5) {
        #expect(answer.status >= 400 || answer.status == 200, "\(what): \(answer.status)")
        #expect(!answer.body.hasPrefix("ok "), "\(what) changed the board: \(answer.body)")
      }
      #expect(control.request("get home") == "ok 5", "\(what)")
      #expect(try HTTPClient(port: port).request("/api/state")?.status == 200, "\(what)")
    }
    #expect(control.request("get away") == "ok 0")
    probe.report("malformed requests came in")
    #expect(daemon.waitForExit(timeout: 0) == nil, "the daemon runs")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func aHundredStreamsComingAndGoingAtRandomLeaveTheBoardAlone() throws {
    let folder = try TemporaryFolder()
    let probe = try KeypadProbe(in: folder)
    let (daemon, port) = try WebTests.start(folder: folder, extra: probe.configuration)
    let control = try ControlClient(path: folder.path(of: "control"))
    var random = SeededRandom.forTest("web streams")
    var streams: [HTTPClient?] = Array(repeating: nil, count: 100)
    var opened = 0
    for round in 1...400 {
      let slot = Int(random.next() % 100)
      if streams[slot] == nil || random.next() % 3 == 0 {
        // A new page (each slot a phone of its own): some read their first events,
        // some leave at once.
        let client = try HTTPClient(port: port, from: "127.0.1.\(slot + 1)")
        client.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        if random.next() % 2 == 0 {
          #expect(client.response()?.status == 200)
        }
        streams[slot] = client
        opened += 1
      } else {
        streams[slot] = nil
      }
      if round % 4 == 0 {
        let value = round / 4 % 100
        #expect(control.request("set home \(value)") == "ok home \(value)", "round \(round)")
        #expect(probe.press(daemon), "round \(round)")
      }
    }
    // Every page still connected and reading gets the last change.
    let reader = try HTTPClient(port: port)
    reader.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    #expect(reader.response()?.status == 200)
    #expect(control.request("set away 42") == "ok away 42")
    #expect(reader.readStream { $0.contains("data: value away 42") })
    streams.removeAll()
    #expect(control.request("get home") == "ok 0")
    #expect(opened > 100)
    probe.report("100 streams came and went")
    #expect(daemon.waitForExit(timeout: 0) == nil, "the daemon runs")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
