import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A display driven by bit-banging GPIO lines: a TM1637 module, a TM1638 board, a MAX7219
/// chain or a chain of shift registers, whichever `GPIOProtocol` it speaks.
///
/// `show` encodes the frame, sending only what changed, and starts playing it: its steps
/// up to the first delay that ends more than the player's `longestInlineWait` (20 µs)
/// after the call began. `waitingFor` then names the end of that delay, and `service`
/// goes on from there, piece by piece, on the frame's one schedule (`GPIOLinePlayer`).
/// So a TM1637 frame (6 to 14 ms of 100 µs bit delays) never holds the event loop for
/// more than a few line operations and a short wait. A frame given while one is played
/// is kept, only the latest, and played when the current one ends: two transactions
/// never share the wire. `shutdown` plays at once, to the end.
///
/// A missing acknowledgement or a failed line operation takes the display offline,
/// logged once; it is tried again with the serial displays' back-off
/// (`SerialDisplay.retryDelay(attempt:)`), and fully re-initialised when it answers. A
/// request that fails (a line that is busy or does not exist) is retried the same way.
/// The display is also re-initialised every `reinitializeInterval` of its protocol, for
/// chips that lose their state without telling. The line request is owned by the
/// display.
///
/// A device that has keys (a TM1638 board) is also read with its `GPIOKeyScan`, every
/// `interval` from the start of the last read, while it is online: a read is a
/// transaction like a frame, played in pieces on the same schedule rules, never in the
/// middle of a frame (a read that comes due waits for the frame on the wire to end, and
/// goes before a frame given meanwhile). Reads are kept for `takeKeyReads()`. A read that
/// the device does not answer takes the display offline; since such a device has no
/// acknowledgement, it is back online only once a read is answered again, after the
/// re-initialisation.
public final class GPIOSegmentDisplay: SegmentDisplay {
  /// The display's name in the configuration.
  public let name: String
  /// The lines, in the protocol's order.
  public let addresses: [GPIOLine]
  private var encoder: any GPIOProtocol
  private let backend: any GPIOBackend
  private let logger: Logger
  private let player: GPIOLinePlayer

  private var lines: (any GPIOLines)?
  /// The frame to show: the latest one given.
  private var wanted: Frame?
  /// The frame being played, when one is.
  private var transfer: Transfer?
  /// A frame was given after the one being played was encoded.
  private var wantedIsNewer = false
  /// The device's state is unknown: the next steps are a full initialisation.
  private var needsInitialization = true
  /// When the device was last fully initialised.
  private var initializedAt: Instant?
  private var outage: DisplayOutage?
  /// How the device's keys are read; nil when they are not.
  private var keyScan: GPIOKeyScan?
  /// When the next key read is due; nil before the lines are requested.
  private var nextKeyReadAt: Instant?
  /// The key reads not yet taken, oldest first.
  private var keyReads: [GPIOKeyScan.Read] = []

  /// A frame on its way to the device.
  private struct Transfer {
    var playback: GPIOLinePlayer.Playback
    /// When the next piece is due.
    var resumeAt: Instant
    /// What the steps are: a frame, and whether they fully initialise the device, or a
    /// key read.
    var kind: Kind
    /// When the frame was started.
    var startedAt: Instant

    enum Kind {
      case frame(initializes: Bool)
      case keyRead
    }
  }

  /// The consumer name the lines are requested under, as `gpioinfo` shows it.
  public static let consumer = "scoreboardd"

  /// Requests the lines at once; a request that fails is logged and retried.
  ///
  /// - Parameters:
  ///   - addresses: One line for each of `encoder.lines`, in that order.
  ///   - backend: Where the lines are requested.
  ///   - clock: What times the bit delays; its instants are those of `now`.
  ///   - longestInlineWait: The longest wait slept inside `show` or `service` instead of
  ///     returning to the loop; nil plays every frame to its end in the call that starts
  ///     it, as the driver once did (for comparisons).
  ///   - keyScan: How the device's keys are read; nil when they are not. The first read
  ///     is due once the lines are requested.
  public init(
    name: String, addresses: [GPIOLine], encoder: any GPIOProtocol,
    backend: any GPIOBackend, logger: Logger, at now: Instant,
    clock: any TimeSource = KernelTimeSource(),
    longestInlineWait: Duration? = GPIOLinePlayer.defaultLongestInlineWait,
    keyScan: GPIOKeyScan? = nil
  ) {
    precondition(addresses.count == encoder.lines.count, "one address per line of the protocol")
    self.name = name
    self.addresses = addresses
    self.encoder = encoder
    self.backend = backend
    self.logger = logger
    self.keyScan = keyScan
    player = GPIOLinePlayer(
      outputSettings: encoder.lines.map(\.settings), clock: clock,
      longestInlineWait: longestInlineWait)
    requestLines(at: now)
  }

  /// Whether the lines are held and the device answered the last frame.
  public var isOnline: Bool { outage == nil }

  /// Whether a frame is being played: `waitingFor` is then the end of its current delay.
  public var isPlaying: Bool { transfer != nil }

  /// Starts playing the changes from what the device shows to `frame` (everything after
  /// the device was offline or the lines were requested again). While a frame is being
  /// played, or the device is offline, keeps `frame` for later.
  public func show(_ frame: Frame, at now: Instant) {
    wanted = frame
    if transfer != nil {
      wantedIsNewer = true
      return
    }
    guard outage == nil else { return }
    refresh(at: now)
  }

  /// The end of the current delay of the frame or key read being played; else the next
  /// try while offline, else the next key read; never a descriptor. The periodic
  /// re-initialisation is not waited for: it is `refreshDueAt`.
  public var waitingFor: DeviceWait {
    if let transfer {
      return DeviceWait(deadline: transfer.resumeAt)
    }
    if let outage {
      return DeviceWait(deadline: outage.retryAt)
    }
    return DeviceWait(deadline: nextKeyReadAt)
  }

  /// When the periodic re-initialisation comes due, while the device answers and no
  /// transfer is being played (a transfer's end makes the device called again).
  public var refreshDueAt: Instant? {
    outage == nil && !isPlaying ? reinitializationDue : nil
  }

  /// Re-initialises the device if that is due: at once, or after the transfer being
  /// played.
  public func refreshIfDue(at now: Instant) {
    guard outage == nil, let due = reinitializationDue, now >= due else { return }
    if transfer != nil {
      wantedIsNewer = true
    } else {
      refresh(at: now)
    }
  }

  /// Plays the next piece of the frame or key read being played; else tries again an
  /// offline display when its time has come, or re-initialises the device when the
  /// periodic re-initialisation is due, or starts a key read that is due.
  public func service(_ events: PollLoop.Events, at now: Instant) {
    if transfer != nil {
      advance(at: now)
      return
    }
    if let outage {
      guard now >= outage.retryAt else { return }
      if lines == nil {
        requestLines(at: now)
      } else {
        refresh(at: now)
      }
      return
    }
    if let due = nextKeyReadAt, now >= due {
      startKeyRead(at: now)
    }
  }

  /// The key reads played since the last call, oldest first.
  public func takeKeyReads() -> [GPIOKeyScan.Read] {
    defer { keyReads.removeAll() }
    return keyReads
  }

  /// When the oldest key read not yet taken began; nil when there is none.
  public var oldestKeyRead: Instant? { keyReads.first?.time }

  /// Reads the keys no more; a read being played is finished and dropped.
  public func stopKeyScan() {
    keyScan = nil
    nextKeyReadAt = nil
    keyReads.removeAll()
  }

  /// When the next periodic re-initialisation is due; nil for never, or before the
  /// device was first initialised.
  private var reinitializationDue: Instant? {
    guard let interval = encoder.reinitializeInterval, let initializedAt else { return nil }
    return initializedAt + interval
  }

  /// Finishes the frame being played, so that no transaction is cut in half, then plays
  /// `finalFrame` (in full when the device's state is unknown), all at once, and
  /// releases the lines; failures are ignored.
  public func shutdown(showing finalFrame: Frame?) {
    defer {
      lines?.release()
      lines = nil
    }
    guard let lines else { return }
    if var transfer {
      self.transfer = nil
      do {
        let acknowledged = try player.finish(&transfer.playback, on: lines)
        if case .frame = transfer.kind {
          needsInitialization = !acknowledged
        }
      } catch {
        return
      }
    }
    guard let finalFrame else { return }
    let steps =
      needsInitialization
      ? encoder.initialize(showing: finalFrame) : encoder.update(to: finalFrame)
    _ = try? player.play(steps, on: lines)
  }

  /// Starts playing what brings the device to the wanted frame: everything when its
  /// state is unknown, else the changes; when the periodic re-initialisation is due, the
  /// changes and then everything, so that they land as early as without it.
  private func refresh(at now: Instant) {
    guard lines != nil, let wanted else { return }
    let steps: [LineStep]
    let initializing: Bool
    if needsInitialization {
      (steps, initializing) = (encoder.initialize(showing: wanted), true)
    } else if let due = reinitializationDue, now >= due {
      (steps, initializing) =
        (encoder.update(to: wanted) + encoder.initialize(showing: wanted), true)
    } else {
      (steps, initializing) = (encoder.update(to: wanted), false)
    }
    wantedIsNewer = false
    start(steps, kind: .frame(initializes: initializing), at: now)
  }

  /// Starts playing a key read.
  private func startKeyRead(at now: Instant) {
    guard let keyScan, lines != nil else { return }
    start(keyScan.steps, kind: .keyRead, at: now)
  }

  private func start(_ steps: [LineStep], kind: Transfer.Kind, at now: Instant) {
    transfer = Transfer(
      playback: GPIOLinePlayer.Playback(steps), resumeAt: now, kind: kind, startedAt: now)
    advance(at: now)
  }

  /// Plays the next piece of the frame being played; at its end, counts the device as
  /// answering and starts the frame given meanwhile, if any.
  private func advance(at now: Instant) {
    guard var transfer, let lines else { return }
    let progress: GPIOLinePlayer.Progress
    do {
      progress = try player.advance(&transfer.playback, on: lines)
    } catch {
      self.transfer = nil
      lines.release()
      self.lines = nil
      goOffline("\(error)", at: now)
      return
    }
    switch progress {
    case .waiting(let deadline):
      transfer.resumeAt = deadline
      self.transfer = transfer
    case .unacknowledged:
      self.transfer = nil
      goOffline("no acknowledgement from the device", at: now)
    case .finished:
      self.transfer = nil
      switch transfer.kind {
      case .frame(let initializes):
        needsInitialization = false
        if initializes {
          initializedAt = transfer.startedAt
        }
        // A device with keys but no acknowledgement answers only the read.
        if outage != nil, keyScan != nil {
          startKeyRead(at: now)
          return
        }
      case .keyRead:
        guard let keyScan else { break }
        guard keyScan.isAnswer(transfer.playback.samples) else {
          goOffline("no answer to the key read", at: now)
          return
        }
        keyReads.append(
          GPIOKeyScan.Read(samples: transfer.playback.samples, time: transfer.startedAt))
        nextKeyReadAt = transfer.startedAt + keyScan.interval
      }
      if outage != nil {
        outage = nil
        logger.notice("display \(name): the device answers again; re-initialised")
      }
      if let due = nextKeyReadAt, now >= due {
        startKeyRead(at: now)
      } else if wantedIsNewer {
        refresh(at: now)
      }
    }
  }

  /// Requests the lines, then shows the wanted frame if there is one.
  private func requestLines(at now: Instant) {
    let request = zip(addresses, encoder.lines).map { (address: $0, settings: $1.settings) }
    do {
      lines = try backend.request(request, consumer: Self.consumer)
    } catch {
      let attempt = outage.map { $0.attempt + 1 } ?? 0
      if attempt == 0 {
        logger.warning("display \(name): \(error); will keep trying")
      } else {
        logger.debug("display \(name): still offline: \(error)")
      }
      outage = DisplayOutage(
        retryAt: now + SerialDisplay.retryDelay(attempt: attempt), attempt: attempt)
      return
    }
    let roles = zip(encoder.lines, addresses).map { "\($0.role)=\($1)" }.joined(separator: ", ")
    logger.info("display \(name): lines \(roles) requested")
    needsInitialization = true
    nextKeyReadAt = keyScan.map { _ in now }
    guard wanted != nil else {
      outage = nil
      return
    }
    refresh(at: now)
  }

  /// Counts the device as offline after `reason`, logging it when it was online, and
  /// schedules the next try.
  private func goOffline(_ reason: String, at now: Instant) {
    outage = DisplayOutage.after(outage, display: name, reason: reason, logger: logger, at: now)
    needsInitialization = true
  }
}
