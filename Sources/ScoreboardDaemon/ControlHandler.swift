import ScoreboardCore

/// Carries out what control-socket clients ask for; the daemon implements it, and the
/// `ControlServer` calls it on the loop's thread.
public protocol ControlHandler: AnyObject {
  /// Carries out one request from a client and gives `answer` the response exactly
  /// once: at once, or later (a change once it is saved). The server reads no further
  /// request of that client until then, and writes the answer's line
  /// (`docs/control-protocol.md` lists them for each command). The server answers
  /// `watch` and `help` itself and never passes them here.
  /// - Parameter client: Names the client for logs, such as `control client 3`.
  func handle(
    _ request: ControlRequest, client: String, answer: @escaping (ControlResponse) -> Void)

  /// Whether something more urgent than a client's next request waits: a key to read,
  /// a clock's frame due. The server then leaves that client's other lines to a later
  /// round (`ControlServer.answerDeferred()`).
  var urgentWorkWaits: Bool { get }
}
