@preconcurrency import Glibc
import TestSupport
import Testing

/// Who may change the board from the web, in the real daemon over real HTTP: pairing with
/// the code `scoreboardctl pair` prints, commands from paired devices only, the Origin
/// and Host checks, devices paired for some fields, lockouts, and devices kept across a
/// restart.
@Suite(
  .serialized,
  .enabled(
    if: access("/usr/include/microhttpd.h", R_OK) == 0
      || dlopen("libmicrohttpd.so.12", RTLD_NOW) != nil,
    "needs libmicrohttpd (make deps)"))
struct WebPairingTests {
  /// A POST from a page of the board itself (`Origin` the `Host`), with the device's
  /// cookie when there is one.
  static func post(
    _ http: HTTPClient, _ path: String, _ body: String, cookie: String? = nil,
    headers: [String: String] = ["Origin": "http://127.0.0.1"]
  ) -> HTTPClient.Response? {
    var headers = headers
    if let cookie {
      headers["Cookie"] = "theme=dark; scoreboardd_device=\(cookie)"
    }
    return http.request(path, method: "POST", headers: headers, body: body)
  }

  /// Arms a code through the control socket and returns it.
  static func armCode(_ control: ControlClient, _ arguments: String = "") throws -> String {
    let answer = try #require(control.request("pair" + arguments))
    try #require(answer.hasPrefix("ok "), "\(answer)")
    return String(answer.dropFirst(3).prefix(6))
  }

  /// Pairs as `name` with `code`; the device's token from its cookie.
  static func pair(_ http: HTTPClient, code: String, name: String = "phone") throws -> String {
    let answer = try #require(post(http, "/api/pair", "code=\(code)&name=\(name)"))
    try #require(answer.status == 200, "\(answer.status) \(answer.body)")
    let cookie = try #require(answer.headers["set-cookie"])
    #expect(cookie.hasSuffix("; HttpOnly; SameSite=Strict; Path=/; Max-Age=31536000"))
    let token = cookie.dropFirst("scoreboardd_device=".count).prefix { $0 != ";" }
    #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "\(cookie)")
    return String(token)
  }

  /// `scoreboardd --pair` (as `make demo` runs it) arms a code at start and logs it.
  @Test func theCommandLineArmsACodeAtStart() throws {
    let folder = try TemporaryFolder()
    let port = try MosquittoBroker.freePort()
    let path = try folder.write(
      "web.conf", WebTests.configuration(folder: folder, port: port))
    let daemon = try DaemonProcess(arguments: ["--config", path, "--pair"], folder: folder)
    let said = "web: the pairing code is "
    // The whole line: the last piece after a newline may be cut short.
    func line(in text: String) -> Substring? {
      text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first {
        $0.contains(said)
      }
    }
    try #require(daemon.waitForStderr { line(in: $0) != nil }, "\(daemon.stderrText)")
    let line = try #require(line(in: daemon.stderrText))
    let code = String(line.suffix(6))
    #expect(line.hasSuffix(said + code) && code.allSatisfy(\.isNumber), "\(line)")
    #expect(
      daemon.stderrText.contains(
        "web: pairing armed for every field by the command line; the code shows on the "
          + "displays for 2 minutes"))
    let http = try HTTPClient(port: port)
    _ = try Self.pair(http, code: code)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func aPairedDeviceChangesTheBoardAndNothingElseDoes() throws {
    let folder = try TemporaryFolder()
    var (daemon, port) = try WebTests.start(folder: folder)
    var control = try ControlClient(path: folder.path(of: "control"))
    let http = try HTTPClient(port: port)

    #expect(Self.post(http, "/api/command", "set home 12")?.status == 401)
    #expect(http.request("/api/command?line=set+home+12")?.status == 405, "no GET changes")
    #expect(
      http.request("/api/session")?.body == #"{"paired":false,"pairing":false}"#)
    #expect(Self.post(http, "/api/pair", "code=123456")?.status == 409, "nothing armed")

    let code = try Self.armCode(control)
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    #expect(http.request("/api/session")?.body == #"{"paired":false,"pairing":true}"#)
    // Not from a page of the board: refused before the code is looked at.
    for headers in [
      [:], ["Origin": "http://evil.example"], ["Origin": "null"],
      ["Origin": "http://127.0.0.1:1"],
      ["Host": "evil.example", "Origin": "http://evil.example"],
      ["Host": "127.0.0.1.evil.example", "Origin": "http://127.0.0.1.evil.example"],
    ] {
      let answer = Self.post(http, "/api/pair", "code=\(code)", headers: headers)
      #expect(answer?.status == 403, "\(headers)")
    }
    let token = try Self.pair(http, code: code)
    #expect(Self.post(http, "/api/pair", "code=\(code)")?.status == 409, "the code is used up")
    #expect(
      http.request("/api/session", headers: ["Cookie": "scoreboardd_device=\(token)"])?.body
        == #"{"paired":true,"device":"phone","fields":null}"#)

    // Commands: the socket's answers, as text or JSON.
    #expect(Self.post(http, "/api/command", "set home 12", cookie: token)?.body == "ok home 12\n")
    #expect(control.request("get home") == "ok 12")
    let json = Self.post(
      http, "/api/command", "set home 120\r\n", cookie: token,
      headers: ["Origin": "http://127.0.0.1", "Accept": "application/json"])
    #expect(json?.status == 200)
    #expect(json?.body.hasPrefix(#"{"ok":false,"answer":"error "#) == true, "\(json?.body ?? "")")
    #expect(
      Self.post(http, "/api/command", "add away +2", cookie: token)?.body == "ok away 2\n")
    #expect(Self.post(http, "/api/command", "pair", cookie: token)?.status == 403)
    #expect(Self.post(http, "/api/command", "unpair all", cookie: token)?.status == 403)
    // Another token: its first two digits changed (a token that starts with "00" made the
    // same token again, once in 256 runs).
    let forged = (token.hasPrefix("00") ? "11" : "00") + token.dropFirst(2)
    #expect(Self.post(http, "/api/command", "set home 1", cookie: forged)?.status == 401)
    #expect(
      Self.post(
        http, "/api/command", "set home 1", cookie: token,
        headers: ["Origin": "http://evil.example"])?.status == 403)
    #expect(
      daemon.waitForStderr { $0.contains("home: 0 -> 12 (web phone)") }, "\(daemon.stderrText)")
    #expect(
      http.request("/api/changes")?.body.contains(#""what":"away 2","by":"web phone"}"#) == true)
    #expect(control.request("devices")?.hasPrefix("ok phone (every field, seen ") == true)

    // A restart keeps the device paired.
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
    (daemon, port) = try WebTests.start(folder: folder)
    control = try ControlClient(path: folder.path(of: "control"))
    let again = try HTTPClient(port: port)
    #expect(Self.post(again, "/api/command", "set home 7", cookie: token)?.body == "ok home 7\n")
    #expect(control.request("unpair phone") == "ok unpaired phone")
    #expect(Self.post(again, "/api/command", "set home 8", cookie: token)?.status == 401)
    #expect(control.request("unpair phone")?.hasPrefix("error no device named 'phone'") == true)
    #expect(control.request("get home") == "ok 7")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func aDevicePairedForSomeFieldsChangesThoseOnly() throws {
    let folder = try TemporaryFolder()
    let (daemon, port) = try WebTests.start(folder: folder)
    let control = try ControlClient(path: folder.path(of: "control"))
    let http = try HTTPClient(port: port)
    #expect(control.request("pair nothere")?.hasPrefix("error no field named 'nothere'") == true)
    let token = try Self.pair(http, code: try Self.armCode(control, " away game"), name: "bench")
    #expect(
      http.request("/api/session", headers: ["Cookie": "scoreboardd_device=\(token)"])?.body
        == #"{"paired":true,"device":"bench","fields":["away","game"]}"#)
    #expect(Self.post(http, "/api/command", "set away 3", cookie: token)?.body == "ok away 3\n")
    #expect(Self.post(http, "/api/command", "start game", cookie: token)?.status == 200)
    #expect(Self.post(http, "/api/command", "get home", cookie: token)?.body == "ok 0\n")
    for line in ["set home 3", "add home +1", "undo", "reset", "blank on", "start", "horn"] {
      let answer = Self.post(http, "/api/command", line, cookie: token)
      #expect(answer?.status == 403, "\(line)")
      #expect(answer?.body == "error bench may change away game only\n", "\(line)")
    }
    #expect(control.request("get home") == "ok 0")
    #expect(control.request("devices")?.hasPrefix("ok bench (away game, seen") == true)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func wrongCodesLockTheirAddressOutAndThirtyDisarmTheCode() throws {
    let folder = try TemporaryFolder()
    let probe = try KeypadProbe(in: folder)
    let (daemon, port) = try WebTests.start(folder: folder, extra: probe.configuration)
    let control = try ControlClient(path: folder.path(of: "control"))
    let code = try Self.armCode(control)
    let wrong = code == "000000" ? "000001" : "000000"
    let guesser = try HTTPClient(port: port, from: "127.0.0.3")
    for triesLeft in (1...4).reversed() {
      let answer = Self.post(guesser, "/api/pair", "code=\(wrong)")
      #expect(answer?.status == 403)
      #expect(
        answer?.body.hasPrefix("error wrong code; \(triesLeft) tr") == true, "\(answer?.body ?? "")"
      )
    }
    #expect(Self.post(guesser, "/api/pair", "code=\(wrong)")?.status == 429)
    let locked = Self.post(guesser, "/api/pair", "code=\(code)")
    #expect(locked?.status == 429, "locked out, even with the right code")
    #expect(locked?.headers["retry-after"].flatMap { Int($0) }.map { $0 > 100 } == true)
    // Another address still pairs with the code.
    _ = try Self.pair(try HTTPClient(port: port, from: "127.0.0.4"), code: code)

    // Thirty wrong codes in all, four from each of eight addresses, disarm a new code.
    let second = try Self.armCode(control)
    let wrongAgain = second == "000000" ? "000001" : "000000"
    var refused = 0
    for address in 10..<18 {
      let client = try HTTPClient(port: port, from: "127.0.0.\(address)")
      for _ in 0..<4 where refused < 30 {
        #expect(Self.post(client, "/api/pair", "code=\(wrongAgain)")?.status == 403)
        refused += 1
      }
    }
    let late = try HTTPClient(port: port, from: "127.0.0.20")
    #expect(Self.post(late, "/api/pair", "code=\(second)")?.status == 409)
    // The code is off the displays once disarmed, and the keypad shows on them again.
    #expect(probe.press(daemon))
    #expect(control.request("devices")?.hasPrefix("ok phone (every field") == true)
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func malformedCommandsAndFormsAreRefusedAndChangeNothing() throws {
    let folder = try TemporaryFolder()
    let (daemon, port) = try WebTests.start(folder: folder)
    let control = try ControlClient(path: folder.path(of: "control"))
    let http = try HTTPClient(port: port)
    let token = try Self.pair(http, code: try Self.armCode(control))
    for body in ["set home 1\nset away 2", "set home \u{1}", "", "set home 1\rset away 2"] {
      let answer = Self.post(http, "/api/command", body, cookie: token)
      #expect(answer.map { $0.status == 400 || $0.body.hasPrefix("error ") } == true, "\(body)")
    }
    let code = try Self.armCode(control)
    for form in [
      "code=%G1", "code=%00", "name=%FF&code=\(code)",
      "code=\(code)&name=" + String(repeating: "a", count: 300),
    ] {
      #expect(Self.post(http, "/api/pair", form)?.status == 400, "\(form)")
    }
    #expect(control.request("get home") == "ok 0")
    #expect(control.request("get away") == "ok 0")
    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
