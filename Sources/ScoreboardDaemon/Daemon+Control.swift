import ScoreboardCore

extension Daemon: ControlHandler {
  /// Carries out one request from the control socket. A change is saved before the
  /// answer goes out: `ok` means the value survives a power cut, `unsaved` that it could
  /// not be saved and lives in memory only.
  public func handle(_ request: ControlRequest, client: String) -> String {
    if case .status = request {
      return controlStatus().line()
    }
    let answer = carryOut(.request(request, client: client))
    return (answer ?? .error("'\(request)' cannot be carried out")).line
  }
}
