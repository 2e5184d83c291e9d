import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A display driven by bit-banging GPIO lines: a TM1637 module, a MAX7219 chain or a
/// chain of shift registers, whichever `GPIOProtocol` it speaks.
///
/// `show` encodes the frame and plays it at once, sending only what changed; the
/// event loop is blocked for the frame's time (milliseconds: it is measured in the
/// tests). A missing acknowledgement or a failed line operation takes the display
/// offline, logged once; it is tried again with the serial displays' back-off
/// (`SerialDisplay.retryDelay(attempt:)`), and fully re-initialised when it answers. A
/// request that fails (a line that is busy or does not exist) is retried the same way.
/// The display is also re-initialised every `reinitializeInterval` of its protocol, for
/// chips that lose their state without telling. The line request is owned by the
/// display.
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
  /// The device's state is unknown: the next steps are a full initialisation.
  private var needsInitialization = true
  /// When the device was last fully initialised.
  private var initializedAt: Instant?
  private var outage: Outage?

  /// When to try again an offline display, and how many tries failed.
  private struct Outage {
    var retryAt: Instant
    var attempt: Int
  }

  /// The consumer name the lines are requested under, as `gpioinfo` shows it.
  public static let consumer = "scoreboardd"

  /// Requests the lines at once; a request that fails is logged and retried.
  ///
  /// - Parameters:
  ///   - addresses: One line for each of `encoder.lines`, in that order.
  ///   - backend: Where the lines are requested.
  public init(
    name: String, addresses: [GPIOLine], encoder: any GPIOProtocol,
    backend: any GPIOBackend, logger: Logger, at now: Instant
  ) {
    precondition(addresses.count == encoder.lines.count, "one address per line of the protocol")
    self.name = name
    self.addresses = addresses
    self.encoder = encoder
    self.backend = backend
    self.logger = logger
    player = GPIOLinePlayer(outputSettings: encoder.lines.map(\.settings))
    requestLines(at: now)
  }

  /// Whether the lines are held and the device answered the last frame.
  public var isOnline: Bool { outage == nil }

  /// Plays the changes from what the device shows to `frame` at once (everything after
  /// the device was offline or the lines were requested again); while offline, keeps
  /// `frame` for when the device is back.
  public func show(_ frame: Frame, at now: Instant) {
    wanted = frame
    guard outage == nil else { return }
    refresh(at: now)
  }

  /// The next try while offline, else the next periodic re-initialisation; never a
  /// descriptor.
  public var waitingFor: DeviceWait {
    if let outage {
      return DeviceWait(deadline: outage.retryAt)
    }
    guard let interval = encoder.reinitializeInterval, let initializedAt else { return .nothing }
    return DeviceWait(deadline: initializedAt + interval)
  }

  /// Tries again an offline display when its time has come, or re-initialises the
  /// device when the periodic re-initialisation is due.
  public func service(_ events: PollLoop.Events, at now: Instant) {
    if let outage {
      guard now >= outage.retryAt else { return }
      if lines == nil {
        requestLines(at: now)
      } else {
        refresh(at: now)
      }
      return
    }
    if let deadline = waitingFor.deadline, now >= deadline {
      needsInitialization = true
      refresh(at: now)
    }
  }

  /// Plays `finalFrame` (in full when the device's state is unknown), then releases the
  /// lines; failures are ignored.
  public func shutdown(showing finalFrame: Frame?) {
    defer {
      lines?.release()
      lines = nil
    }
    guard let lines, let finalFrame else { return }
    let steps =
      needsInitialization
      ? encoder.initialize(showing: finalFrame) : encoder.update(to: finalFrame)
    _ = try? player.play(steps, on: lines)
  }

  /// Plays what brings the device to the wanted frame: everything when its state is
  /// unknown, else the changes.
  private func refresh(at now: Instant) {
    guard let lines, let wanted else { return }
    let initializing = needsInitialization
    let steps = initializing ? encoder.initialize(showing: wanted) : encoder.update(to: wanted)
    let acknowledged: Bool
    do {
      acknowledged = try player.play(steps, on: lines)
    } catch {
      lines.release()
      self.lines = nil
      goOffline("\(error)", at: now)
      return
    }
    guard acknowledged else {
      goOffline("no acknowledgement from the device", at: now)
      return
    }
    needsInitialization = false
    if initializing {
      initializedAt = now
    }
    if outage != nil {
      outage = nil
      logger.notice("display \(name): the device answers again; re-initialised")
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
      outage = Outage(retryAt: now + SerialDisplay.retryDelay(attempt: attempt), attempt: attempt)
      return
    }
    let roles = zip(encoder.lines, addresses).map { "\($0.role)=\($1)" }.joined(separator: ", ")
    logger.info("display \(name): lines \(roles) requested")
    needsInitialization = true
    guard wanted != nil else {
      outage = nil
      return
    }
    refresh(at: now)
  }

  /// Counts the device as offline after `reason`, logging it when it was online, and
  /// schedules the next try.
  private func goOffline(_ reason: String, at now: Instant) {
    if outage == nil {
      logger.warning("display \(name): \(reason); offline, retrying")
    } else {
      logger.debug("display \(name): still offline: \(reason)")
    }
    let attempt = outage.map { $0.attempt + 1 } ?? 0
    outage = Outage(retryAt: now + SerialDisplay.retryDelay(attempt: attempt), attempt: attempt)
    needsInitialization = true
  }
}
