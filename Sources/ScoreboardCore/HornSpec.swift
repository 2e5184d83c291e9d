/// A horn (or buzzer) as the model sees it: what sounds it, and for how long.
///
/// Where it is wired is the configuration's business; the model says when it sounds.
public struct HornSpec: Hashable, Sendable {
  /// The horn's name in the configuration, keymaps and the control socket (`main`).
  public var name: String
  /// The clock fields whose reaching zero (or their end, counting up) sounds the horn.
  public var clocks: [String]
  /// How long it sounds at zero, and for `horn` from the control socket.
  public var duration: Duration
  /// The longest a held horn key keeps it sounding: a stuck key or a lost release
  /// does not sound it for ever.
  public var holdLimit: Duration
  /// The running clocks that sound the horn, for its duration, when this much time is
  /// left on them (a timeout's 10 s warning).
  public var warnings: [Warning]

  /// A warning: the horn sounds when clock `clock` runs past `left` before its end.
  public struct Warning: Hashable, Sendable {
    public var clock: String
    public var left: Duration

    public init(clock: String, left: Duration) {
      self.clock = clock
      self.left = left
    }
  }

  public init(
    name: String, clocks: [String] = [], duration: Duration = .milliseconds(1500),
    holdLimit: Duration = .seconds(5), warnings: [Warning] = []
  ) {
    self.name = name
    self.clocks = clocks
    self.duration = duration
    self.holdLimit = holdLimit
    self.warnings = warnings
  }
}

/// When a horn sounds: for a set time from an instant (a clock's zero), and while its
/// key is held.
public struct HornState: Hashable, Sendable {
  /// It sounds from this instant until `timedUntil` (a clock's zero, a control request).
  public var timedFrom: Instant?
  public var timedUntil: Instant?
  /// When its key went down, while it is held.
  public var heldSince: Instant?
  /// A hold that a remote client must renew (a web page's button): it ends here unless
  /// renewed, so a lost connection silences the horn; nil for a keypad's key.
  public var heldUntil: Instant?
  /// Whether it sounded at the last look, for the on and off events.
  var reportedOn = false

  public init() {}

  /// Whether the horn sounds at `now`.
  public func isSounding(at now: Instant, spec: HornSpec) -> Bool {
    if let heldSince, now >= heldSince, now < heldSince + spec.holdLimit,
      heldUntil.map({ now < $0 }) ?? true
    {
      return true
    }
    if let timedFrom, let timedUntil, now >= timedFrom, now < timedUntil {
      return true
    }
    return false
  }

  /// The next instant after `now` at which the horn starts or stops by itself.
  public func nextChange(after now: Instant, spec: HornSpec) -> Instant? {
    var next: Instant?
    func consider(_ candidate: Instant?) {
      if let candidate, candidate > now, next.map({ candidate < $0 }) ?? true {
        next = candidate
      }
    }
    consider(heldSince.map { $0 + spec.holdLimit })
    consider(heldUntil)
    consider(timedFrom)
    consider(timedUntil)
    return next
  }
}
