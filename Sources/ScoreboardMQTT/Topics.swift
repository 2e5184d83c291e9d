/// The topics of one board below its base topic (`scoreboardd/court-1`).
public struct Topics: Hashable, Sendable {
  /// The base topic, without a trailing slash.
  public let base: String

  /// The topics below `base`.
  public init(base: String) {
    self.base = base
  }

  /// The retained state document.
  public var state: String { base + "/state" }
  /// `online` or `offline` (the will), retained.
  public var status: String { base + "/status" }
  /// Requests of the control protocol.
  public var command: String { base + "/command" }
  /// The answers to requests.
  public var reply: String { base + "/reply" }
}
