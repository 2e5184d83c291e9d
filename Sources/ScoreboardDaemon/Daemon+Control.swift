import ScoreboardCore

extension Daemon: ControlHandler {
  /// Carries out one request from the control socket. A change is saved before the
  /// answer goes out: `ok` means the value survives a power cut, `unsaved` that it could
  /// not be saved and lives in memory only.
  public func handle(
    _ request: ControlRequest, client: String, answer: @escaping (ControlResponse) -> Void
  ) {
    if case .status = request {
      answer(controlStatus().response)
      return
    }
    carryOut(.request(request, client: client)) { response in
      answer(response ?? .error("'\(request)' cannot be carried out"))
    }
  }
}
