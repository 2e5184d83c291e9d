import ScoreboardCore
import ScoreboardWeb

extension Daemon: ControlHandler {
  /// Carries out one request from the control socket. A change is saved before the
  /// answer goes out: `ok` means the value survives a power cut, `unsaved` that it could
  /// not be saved and lives in memory only.
  public func handle(
    _ request: ControlRequest, client: String, answer: @escaping (ControlResponse) -> Void
  ) {
    switch request {
    case .status:
      answer(controlStatus().response)
      return
    case .pair(let fields):
      answer(pair(fields: fields, by: client))
      return
    case .stopPairing:
      guard let web else {
        answer(.error(Self.noWeb))
        return
      }
      web.disarmPairing(by: client)
      answer(.ok("pairing off"))
      return
    case .devices:
      answer(web.map { .ok($0.access.listing) } ?? .error(Self.noWeb))
      return
    case .unpair(let name):
      answer(unpair(name, by: client))
      return
    default:
      break
    }
    carryOut(.request(request, client: client)) { response in
      answer(response ?? .error("'\(request)' cannot be carried out"))
    }
  }
}

extension Daemon {
  static let noWeb = "this board has no web console: add a [web] section to its configuration"

  /// Arms the pairing of a web console for `fields` (nil: every field).
  func pair(fields: [String]?, by client: String) -> ControlResponse {
    guard web != nil else { return .error(Self.noWeb) }
    let known = configuration.scoreboard.fields.map(\.name)
    if let unknown = fields?.first(where: { !known.contains($0) }) {
      return .error(
        "no field named '\(unknown)'; the fields are \(known.joined(separator: ", "))")
    }
    guard let code = armPairing(fields: fields, by: client, at: clock.now()) else {
      return .error("the kernel gives no random bytes for a code now; try again")
    }
    let which = fields.map { "fields " + $0.joined(separator: " ") } ?? "every field"
    return .ok("\(code) for \(Pairing.codeLifetime.components.seconds) s, \(which)")
  }

  /// Arms the pairing and shows its code; nil when no code could be made.
  @discardableResult
  func armPairing(fields: [String]?, by source: String, at now: Instant) -> String? {
    guard let web else {
      logger.warning("\(source): pair: \(Self.noWeb)")
      return nil
    }
    do {
      return try web.armPairing(fields: fields, by: source, at: now)
    } catch {
      logger.error("web: cannot make a pairing code: \(error)")
      return nil
    }
  }

  /// Forgets a paired device, or all of them.
  func unpair(_ name: String, by client: String) -> ControlResponse {
    guard let web else { return .error(Self.noWeb) }
    let gone = web.access.unpair(name)
    guard !gone.isEmpty else {
      let paired = web.access.devices.devices.map(\.name)
      return .error(
        "no device named '\(name)'"
          + (paired.isEmpty ? "; none is paired" : "; paired: \(paired.joined(separator: ", "))"))
    }
    logger.notice("web: \(client) unpaired \(gone.joined(separator: ", "))")
    return .ok("unpaired \(gone.joined(separator: " "))")
  }
}
