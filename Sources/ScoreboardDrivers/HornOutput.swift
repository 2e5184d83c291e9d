import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A horn, siren relay or buzzer: on while the model says it sounds, or while a key
/// click pulses it.
///
/// On a GPIO line it is requested as an output at its off level, with the bias pulling
/// the line to off (down for an active-high horn, up for an active-low one), so that a
/// line the kernel takes back when scoreboardd stops or crashes (the Raspberry Pi's GPIO
/// driver makes a freed line an input) stays silent. On the terminal it rings the bell
/// when it starts sounding (when standard output is a terminal). A line request that
/// fails is logged and tried again with the displays' back-off.
public final class HornOutput {
  /// Where the horn is.
  public enum Wiring {
    case gpio(line: GPIOLine, activeLow: Bool, backend: any GPIOBackend)
    case terminalBell(FileDescriptor)
  }

  /// The horn's name in the configuration.
  public let name: String
  /// Whether it clicks for keys.
  public let clicks: Bool
  private let clickDuration: Duration
  private let wiring: Wiring
  private let logger: Logger
  private var lines: (any GPIOLines)?
  private var retry: (at: Instant, attempt: Int)?
  /// What the model says.
  private var sounding = false
  /// Click pulses to come or under way, in order.
  private var pulses: [(start: Instant, end: Instant)] = []
  /// The level last put on the wire.
  private var isOn = false

  /// The consumer name its line is requested under.
  public static let consumer = "scoreboardd"
  /// The pause between the two buzzes of a refused key.
  static let refusalGap: Duration = .milliseconds(60)

  /// A horn on `wiring`; a GPIO line is requested at once, at its off level.
  public init(
    name: String, wiring: Wiring, clicks: Bool, clickDuration: Duration, logger: Logger,
    at now: Instant
  ) {
    self.name = name
    self.wiring = wiring
    self.clicks = clicks
    self.clickDuration = clickDuration
    self.logger = logger
    requestLine(at: now)
  }

  /// Whether the horn's line is held (a terminal bell always is).
  public var isOnline: Bool {
    if case .gpio = wiring { lines != nil } else { true }
  }

  /// Whether the horn is on now.
  public var isSounding: Bool { isOn }

  /// Takes what the model says: the horn sounds or not from `now`.
  public func set(sounding: Bool, at now: Instant) {
    self.sounding = sounding
    update(at: now)
  }

  /// Pulses the horn for a key handled at `now`: one short click for a key that did
  /// something, two longer buzzes for a refused one.
  public func click(refused: Bool, at now: Instant) {
    guard clicks else { return }
    // From when the key is handled, not from its press: a click that would have ended
    // before it could start is still heard.
    let start = max(now, pulses.last?.end ?? now)
    if refused {
      let buzz = clickDuration * 8
      pulses.append((start, start + buzz))
      let second = start + buzz + Self.refusalGap
      pulses.append((second, second + buzz))
    } else {
      pulses.append((start, start + clickDuration))
    }
    update(at: now)
  }

  /// The next pulse edge, or the next try of a line request that failed.
  public var deadline: Instant? {
    var next = retry?.at
    if isOnline, let pulse = pulses.first {
      let edge = isOn ? pulse.end : pulse.start
      next = next.map { min($0, edge) } ?? edge
    }
    return next
  }

  /// Applies what is due at `now`: pulse edges, a line request to try again.
  public func service(at now: Instant) {
    if let retry, now >= retry.at {
      requestLine(at: now)
    }
    update(at: now)
  }

  /// Turns the horn off and releases its line.
  public func shutdown() {
    if isOn, let lines {
      try? lines.set(0, false)
    }
    isOn = false
    lines?.release()
    lines = nil
  }

  /// Puts on the wire the level `now` calls for.
  private func update(at now: Instant) {
    while let first = pulses.first, first.end <= now {
      pulses.removeFirst()
    }
    let pulsing = pulses.first.map { $0.start <= now } ?? false
    let wanted = sounding || pulsing
    guard wanted != isOn else { return }
    switch wiring {
    case .gpio:
      guard let lines else { return }
      do {
        try lines.set(0, wanted)
        isOn = wanted
      } catch {
        logger.warning("horn \(name): \(error); requesting its line again")
        lines.release()
        self.lines = nil
        retry = (now + SerialDisplay.retryDelay(attempt: 0), 0)
      }
    case .terminalBell(let terminal):
      if wanted, terminal.isTerminal {
        try? terminal.writeAll([0x07])
      }
      isOn = wanted
    }
  }

  private func requestLine(at now: Instant) {
    guard case .gpio(let line, let activeLow, let backend) = wiring else { return }
    var settings = GPIOLineSettings.output(initialValue: false, activeLow: activeLow)
    settings.bias = activeLow ? .pullUp : .pullDown
    do {
      lines = try backend.request([(line, settings)], consumer: Self.consumer)
      if retry != nil {
        logger.notice("horn \(name): line \(line) requested")
      } else {
        logger.info("horn \(name): line \(line) requested")
      }
      retry = nil
      isOn = false
    } catch {
      let attempt = retry.map { $0.attempt + 1 } ?? 0
      if attempt == 0 {
        logger.warning("horn \(name): \(error); will keep trying")
      }
      retry = (now + SerialDisplay.retryDelay(attempt: attempt), attempt)
    }
  }
}
