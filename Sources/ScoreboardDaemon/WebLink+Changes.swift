import LinuxIO
import ScoreboardCore
import ScoreboardMQTT
import ScoreboardWeb

/// The requests that change the board: pairing, unpairing and commands from paired
/// devices, each a POST whose `Origin` is its `Host` and whose `Host` is the board's.
extension WebLink {
  /// A POST: pairing, unpairing or a command, each refused unless its `Host` is the
  /// board's and its `Origin` that host.
  func handleChange(_ exchange: WebServer.Exchange) {
    guard ["/api/pair", "/api/unpair", "/api/command"].contains(exchange.path) else {
      respond(
        exchange, 405, text: "nothing to POST at \(exchange.path.prefix(200))\n",
        headers: [("Allow", "GET, HEAD")])
      return
    }
    if let refusal = access.refusal(host: exchange.host, origin: exchange.origin) {
      logger.log(
        .warning, throttle: "web refusal", "web: \(exchange.clientAddress): \(refusal)")
      respondAnswer(exchange, 403, .error(refusal))
      return
    }
    let now = clock.now()
    switch exchange.path {
    case "/api/pair":
      pair(exchange, at: now)
    case "/api/unpair":
      guard let device = access.device(cookieHeader: exchange.cookie) else {
        respondAnswer(exchange, 401, .error("this device is not paired"))
        return
      }
      _ = access.unpair(device.name)
      logger.notice("web: \(device.name) unpaired itself")
      respondAnswer(
        exchange, 200, .ok("unpaired \(device.name)"),
        headers: [
          ("Set-Cookie", "\(WebAccess.cookieName)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
        ])
    default:
      carryOut(exchange)
    }
  }

  fileprivate func pair(_ exchange: WebServer.Exchange, at now: Instant) {
    let code: String
    let name: String
    do {
      code = try FormFields.value("code", in: exchange.body) ?? ""
      name = try FormFields.value("name", in: exchange.body) ?? ""
    } catch {
      respondAnswer(exchange, 400, .error("\(error)"))
      return
    }
    let result: WebAccess.PairingResult
    do {
      result = try access.pair(
        code: code, typedName: name, from: exchange.clientAddress, at: now)
    } catch {
      logger.error("web: cannot pair: \(error)")
      respondAnswer(exchange, 503, .error("the board cannot make a token now: \(error)"))
      return
    }
    switch result {
    case .paired(let device, let token):
      let fields = device.fields.map { $0.joined(separator: " ") } ?? "every field"
      logger.notice("web: paired \(device.name) (\(fields)) from \(exchange.clientAddress)")
      pairingChanged(nil)
      let json = JSONText.object([
        ("ok", "true"), ("answer", JSONText.string("ok paired \(device.name)")),
        ("device", JSONText.string(device.name)),
        ("fields", device.fields.map { JSONText.array($0.map(JSONText.string)) } ?? "null"),
      ])
      exchange.respond(
        200, contentType: "application/json", body: Array(json.utf8),
        headers: Self.answerHeaders + [
          (
            "Set-Cookie",
            "\(WebAccess.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/; "
              + "Max-Age=31536000"
          )
        ])
    case .refused(.wrong(let triesLeft)):
      logger.log(
        .warning, throttle: "web pairing", "web: \(exchange.clientAddress): a wrong pairing code")
      respondAnswer(
        exchange, 403,
        .error(
          "wrong code; \(triesLeft) \(triesLeft == 1 ? "try" : "tries") left from this address"))
    case .refused(.lockedOut(let until)):
      logger.log(
        .warning, throttle: "web pairing",
        "web: \(exchange.clientAddress): too many wrong pairing codes; locked out")
      let seconds = max((until - now).components.seconds, 1)
      respondAnswer(
        exchange, 429, .error("too many wrong codes from this address; try again in \(seconds) s"),
        headers: [("Retry-After", String(seconds))])
    case .refused:
      if access.pairing.armed == nil {
        pairingChanged(nil)
      }
      respondAnswer(
        exchange, 409,
        .error("no pairing code is armed: run 'scoreboardctl pair' on the scoreboard"))
    }
  }

  /// `POST /api/command`: one line of the control protocol from a paired device.
  fileprivate func carryOut(_ exchange: WebServer.Exchange) {
    guard let device = access.device(cookieHeader: exchange.cookie) else {
      respondAnswer(exchange, 401, .error("this device is not paired; pair it with a code"))
      return
    }
    var body = exchange.body[...]
    while let last = body.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
      body = body.dropLast()
    }
    guard let line = String(validatingUTF8Bytes: Array(body)), !line.contains("\n"),
      !line.contains("\r")
    else {
      respondAnswer(
        exchange, 400, .error("the body is one line of UTF-8 text, as in 'set home 12'"))
      return
    }
    let request: ControlRequest
    do {
      request = try ControlRequest(parsing: line)
    } catch {
      respondAnswer(exchange, 200, .error(error.description))
      return
    }
    if let refusal = refusal(of: request, for: device) {
      respondAnswer(exchange, 403, .error(refusal))
      return
    }
    if case .help = request {
      respondAnswer(exchange, 200, .ok(ControlRequest.helpText))
      return
    }
    guard let deferred = exchange.deferAnswer() else { return }
    let json = wantsJSON(exchange)
    command(request, "web \(device.name)") { [weak self] response in
      guard let self else { return }
      let (contentType, body) = Self.answerBody(response, json: json)
      self.server.answer(
        deferred, status: 200, contentType: contentType, body: body, headers: Self.answerHeaders)
      self.answersQueuedAt = self.answersQueuedAt ?? self.clock.now()
    }
  }

  /// Why `device` may not make `request`; nil when it may.
  fileprivate func refusal(of request: ControlRequest, for device: PairedDevices.Device) -> String?
  {
    switch request {
    case .watch:
      return "'watch' is /api/events here"
    case .pair, .stopPairing, .devices, .unpair:
      return "devices are paired and unpaired on the scoreboard, with scoreboardctl"
    case .status, .get, .help:
      return nil
    default:
      guard let fields = device.fields else { return nil }
      let named: [String] =
        switch request {
        case .set(let field, _), .add(let field, _): [field]
        case .clock(let action): action.fieldNames
        case .penalty(let action):
          // The field that keeps the team's penalties: the penalty box's phone.
          board().0.spec.fields.filter {
            if case .penalties(let format) = $0.kind { format.team == action.team } else { false }
          }.map(\.name)
        default: []
        }
      guard !named.isEmpty, named.allSatisfy(fields.contains) else {
        return "\(device.name) may change \(fields.joined(separator: " ")) only"
      }
      return nil
    }
  }

  fileprivate func wantsJSON(_ exchange: WebServer.Exchange) -> Bool {
    exchange.argument("format") == "json" || exchange.accept?.contains("application/json") == true
  }

  fileprivate static let answerHeaders = [
    ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
  ]

  /// An answer as JSON (`{"ok":true,"answer":"ok home 12"}`) or as the socket's line.
  fileprivate static func answerBody(_ response: ControlResponse, json: Bool) -> (String, [UInt8]) {
    guard json else { return ("text/plain; charset=utf-8", Array((response.line + "\n").utf8)) }
    let ok = if case .error = response { "false" } else { "true" }
    return (
      "application/json",
      Array(JSONText.object([("ok", ok), ("answer", JSONText.string(response.line))]).utf8)
    )
  }

  fileprivate func respondAnswer(
    _ exchange: WebServer.Exchange, _ status: Int, _ response: ControlResponse,
    headers: [(String, String)] = []
  ) {
    let (contentType, body) = Self.answerBody(response, json: wantsJSON(exchange))
    exchange.respond(
      status, contentType: contentType, body: body, headers: Self.answerHeaders + headers)
  }
}
