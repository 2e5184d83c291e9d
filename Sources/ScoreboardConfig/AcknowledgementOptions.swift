/// How a display that acknowledges each frame is waited for (`ack = yes`).
public struct AcknowledgementOptions: Hashable, Sendable {
  /// How long to wait for the acknowledgement of a frame (`ack-timeout`), 10ms to 5s.
  public var timeout: Duration
  /// How many times a frame that is not acknowledged is sent again (`retries`), 0 to 10.
  public var retries: Int

  /// Creates acknowledgement options; the defaults wait 100ms and retry 3 times.
  public init(timeout: Duration = .milliseconds(100), retries: Int = 3) {
    self.timeout = timeout
    self.retries = retries
  }
}
