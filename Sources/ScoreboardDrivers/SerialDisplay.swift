import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A display on a serial port: an S7S module, a controller board or a text sign,
/// whichever `SerialProtocol` it speaks.
///
/// It paces frames to the wire: after writing, it waits for the bytes' wire time (and,
/// on a real UART, for the kernel's output queue) before it encodes the next frame, so
/// frames that come faster than the baud rate are coalesced and the device always gets
/// the latest one. When the port fails or hangs up the display goes offline, is logged
/// once, and is reopened with a bounded back-off; a device that comes back is fully
/// re-initialised. A device that loses power by itself, its port still open, cannot be
/// told from one that works: every `reinitializeInterval` all it shows is sent again
/// (`SerialProtocol.refresh`), with the next frame or at `refreshIfDue`, never on a
/// wakeup of its own. The descriptor is owned by the display.
public final class SerialDisplay: SegmentDisplay {
  public let name: String
  /// The port's path, as configured (a by-id link is reopened through the link).
  public let path: String
  private let settings: SerialSettings
  private var encoder: any SerialProtocol
  private let logger: Logger

  private var port: SerialPort?
  /// The frame to show: the latest one given.
  private var wanted: Frame?
  /// `wanted` has not been encoded yet.
  private var hasNewFrame = false
  /// The device's state is unknown: the next bytes are a full initialisation.
  private var needsInitialization = true
  /// Bytes encoded but not yet taken by the port.
  private var pending: [UInt8] = []
  /// When the bytes written so far have left the wire.
  private var wireFreeAt = Instant.zero
  private var awaitingAnswer: AwaitedAnswer?
  private var received: [UInt8] = []
  private var outage: Outage?
  /// How often all the device shows is sent again although nothing failed, in
  /// nanoseconds (a frame's check needs no 128-bit division of a `Duration`); nil for
  /// never.
  private let reinitializeNanoseconds: Int64?
  /// When all the device shows is next sent again: `reinitializeNanoseconds` after it
  /// was last sent whole (initialised or refreshed); nil before that, or never.
  private var nextRefreshAt: Instant?

  /// Bytes sent that the device must acknowledge.
  private struct AwaitedAnswer {
    var bytes: [UInt8]
    var deadline: Instant
    var triesLeft: Int
  }

  /// Why and since when the display is offline, and when to try again.
  private struct Outage {
    var retryAt: Instant
    var attempt: Int
    /// The port is open but the device does not answer.
    var portIsOpen: Bool
  }

  /// The first wait before reopening a port, doubled after each failed attempt.
  static let firstRetryDelay = Duration.milliseconds(250)
  /// The longest wait between two attempts.
  static let longestRetryDelay = Duration.seconds(5)
  /// How long after the bytes' wire time the kernel's output queue is still asked
  /// whether it is empty (1 ms): a UART's FIFO and the driver add a little to the wire
  /// time.
  static let queueCheckWindowNanoseconds: Int64 = 1_000_000
  /// The most bytes of answers read in one wakeup.
  static let answerReadLimit = 4096

  private let clock: any TimeSource

  /// Opens the port at once; a port that cannot be opened yet is logged and retried.
  /// `clock` times the final frame's write when the daemon stops; every
  /// `reinitializeInterval` (nil: never) all the device shows is sent again.
  public init(
    name: String, path: String, settings: SerialSettings, encoder: any SerialProtocol,
    logger: Logger, clock: any TimeSource = KernelTimeSource(),
    reinitializeInterval: Duration? = nil, at now: Instant
  ) {
    self.clock = clock
    reinitializeNanoseconds = reinitializeInterval?.nanoseconds
    self.name = name
    self.path = path
    self.settings = settings
    self.encoder = encoder
    self.logger = logger
    open(at: now, firstTime: true)
  }

  public var isOnline: Bool { outage == nil }

  public func show(_ frame: Frame, at now: Instant) {
    wanted = frame
    hasNewFrame = true
    pump(at: now)
  }

  /// When `reinitializeInterval` has passed since all the device shows was last sent,
  /// while the port is open and no frame waits for the wire (that frame takes the
  /// refresh along).
  public var refreshDueAt: Instant? {
    outage == nil && !hasNewFrame ? nextRefreshAt : nil
  }

  /// Sends all the device shows again if that is due.
  public func refreshIfDue(at now: Instant) {
    guard let due = refreshDueAt, now >= due else { return }
    hasNewFrame = true
    pump(at: now)
  }

  /// Whether the next frame sent is to carry all the device shows.
  private func refreshIsDue(at now: Instant) -> Bool {
    guard let nextRefreshAt else { return false }
    return now >= nextRefreshAt
  }

  /// Notes that all the device shows was sent at `now`.
  private func noteSentWhole(at now: Instant) {
    nextRefreshAt = reinitializeNanoseconds.map { now.advanced(byNanoseconds: $0) }
  }

  public var waitingFor: DeviceWait {
    if let outage {
      guard outage.portIsOpen, let port else { return DeviceWait(deadline: outage.retryAt) }
      return DeviceWait(
        descriptor: port.fileDescriptor, events: [.readable], deadline: outage.retryAt)
    }
    guard let port else { return .nothing }
    var events: PollLoop.Events = []
    var deadline: Instant?
    if !pending.isEmpty {
      events.insert(.writable)
    } else if let awaitingAnswer {
      deadline = awaitingAnswer.deadline
    } else if hasNewFrame {
      deadline = wireFreeAt
    }
    if encoder.acknowledgement != nil {
      events.insert(.readable)
    }
    return DeviceWait(descriptor: port.fileDescriptor, events: events, deadline: deadline)
  }

  public func service(_ events: PollLoop.Events, at now: Instant) {
    if !events.intersection([.hangUp, .error, .invalid]).isEmpty {
      fail("the port hung up", at: now)
      return
    }
    if events.contains(.readable) {
      readAnswers(at: now)
    }
    if let outage, now >= outage.retryAt {
      if outage.portIsOpen {
        self.outage?.retryAt = now + Self.retryDelay(attempt: outage.attempt + 1)
        self.outage?.attempt += 1
        needsInitialization = true
        hasNewFrame = wanted != nil
        awaitingAnswer = nil
        wireFreeAt = now
        pumpWhileOnline(at: now)
      } else {
        open(at: now, firstTime: false)
      }
      return
    }
    if let awaitingAnswer, now >= awaitingAnswer.deadline, pending.isEmpty {
      resendOrGiveUp(at: now)
    }
    pump(at: now)
  }

  public func shutdown(showing finalFrame: Frame?) {
    defer {
      port?.close()
      port = nil
    }
    guard let port, outage == nil || outage?.portIsOpen == true, let finalFrame else { return }
    var bytes = pending
    bytes +=
      needsInitialization ? encoder.initialize(showing: finalFrame) : encoder.update(to: finalFrame)
    let timeout = settings.wireTime(forBytes: bytes.count) + 1_000_000_000
    var remaining = bytes[...]
    let deadline = clock.now() + .nanoseconds(timeout)
    while !remaining.isEmpty, clock.now() < deadline {
      let written = (try? remaining.withUnsafeBytes { try port.write($0) }) ?? -1
      if written < 0 {
        return
      }
      remaining = remaining.dropFirst(written)
      if written == 0 {
        _ = port.drain(timeout: 10_000_000)
      }
    }
    _ = port.drain(timeout: max((deadline - clock.now()).nanoseconds, 0))
  }

  // MARK: - Sending

  /// Sends what can be sent now.
  private func pump(at now: Instant) {
    guard outage == nil else { return }
    pumpWhileOnline(at: now)
  }

  private func pumpWhileOnline(at now: Instant) {
    guard port != nil else { return }
    if !pending.isEmpty {
      writePending(at: now)
      return
    }
    guard awaitingAnswer == nil, hasNewFrame, let wanted, now >= wireFreeAt else { return }
    if mayStillBeSending(at: now), let queued = port?.outputQueueCount(), queued > 0 {
      wireFreeAt = now.advanced(byNanoseconds: settings.wireTime(forBytes: queued))
      return
    }
    hasNewFrame = false
    // `pending` is empty here: the frame's bytes go into its buffer, kept from the last.
    if needsInitialization {
      pending = encoder.initialize(showing: wanted)
      noteSentWhole(at: now)
    } else if refreshIsDue(at: now) {
      pending = encoder.refresh(showing: wanted)
      noteSentWhole(at: now)
    } else {
      encoder.update(to: wanted, appendingTo: &pending)
    }
    needsInitialization = false
    guard !pending.isEmpty else { return }
    if let acknowledgement = encoder.acknowledgement {
      awaitingAnswer = AwaitedAnswer(
        bytes: pending, deadline: now, triesLeft: acknowledgement.retries)
    }
    writePending(at: now)
  }

  /// Whether bytes written earlier may still wait in the kernel's output queue, which
  /// is then worth asking for (`TIOCOUTQ`): the line has been free for less than
  /// `queueCheckWindowNanoseconds` by the baud rate, or hardware flow control may have
  /// held it. A line idle for longer has sent everything, and asking would cost a system
  /// call on the way from every key to the wire.
  private func mayStillBeSending(at now: Instant) -> Bool {
    settings.flowControl == .rtsCts
      || now < wireFreeAt.advanced(byNanoseconds: Self.queueCheckWindowNanoseconds)
  }

  private func writePending(at now: Instant) {
    guard let port else { return }
    let written: Int
    do {
      written = try pending.withUnsafeBytes { try port.write($0) }
    } catch {
      fail("\(error)", at: now)
      return
    }
    guard written > 0 else { return }
    pending.removeFirst(written)
    wireFreeAt = max(wireFreeAt, now).advanced(byNanoseconds: settings.wireTime(forBytes: written))
    if pending.isEmpty, let timeout = encoder.acknowledgement?.timeout {
      awaitingAnswer?.deadline = wireFreeAt + timeout
    }
  }

  // MARK: - Answers

  private func readAnswers(at now: Instant) {
    guard let port else { return }
    // At most `answerReadLimit` bytes per wakeup: a device that floods the line cannot
    // keep the loop reading, and what is kept stays bounded.
    var chunk = [UInt8](repeating: 0, count: 256)
    var total = 0
    while total < Self.answerReadLimit {
      let count: Int
      do {
        count = try chunk.withUnsafeMutableBytes { try port.read(into: $0) }
      } catch {
        fail("\(error)", at: now)
        return
      }
      guard count > 0 else { break }
      total += count
      received += chunk[0..<count]
    }
    guard let acknowledgement = encoder.acknowledgement else {
      received.removeAll()
      return
    }
    var start = 0
    while let (answer, consumed) = acknowledgement.scan(received[start...]) {
      start += consumed
      guard awaitingAnswer != nil else { continue }
      switch answer {
      case .accepted:
        awaitingAnswer = nil
        if outage != nil {
          outage = nil
          logger.log(.notice, "display \(name): \(path) answers again")
        }
      case .rejected:
        resendOrGiveUp(at: now)
      }
    }
    received.removeFirst(start)
    if received.count > 1024 {
      received.removeFirst(received.count - 16)
    }
  }

  /// Sends the unacknowledged bytes again, or counts the device as offline when no
  /// try is left.
  private func resendOrGiveUp(at now: Instant) {
    guard var awaited = awaitingAnswer else { return }
    guard awaited.triesLeft > 0 else {
      awaitingAnswer = nil
      if outage == nil {
        logger.log(
          .warning,
          "display \(name): no answer from \(path) after \((encoder.acknowledgement?.retries ?? 0) + 1) tries; "
            + "offline, retrying")
        outage = Outage(retryAt: now + Self.firstRetryDelay, attempt: 0, portIsOpen: true)
      }
      return
    }
    awaited.triesLeft -= 1
    awaitingAnswer = awaited
    pending = awaited.bytes
    writePending(at: now)
  }

  // MARK: - Opening and failing

  private func open(at now: Instant, firstTime: Bool) {
    do {
      port = try SerialPort(path: path, settings: settings)
    } catch {
      let attempt = (outage?.attempt ?? -1) + 1
      if firstTime {
        logger.log(.warning, "display \(name): \(Self.explain(error)); will keep trying")
      } else {
        logger.log(.debug, "display \(name): still offline: \(error)")
      }
      outage = Outage(
        retryAt: now + Self.retryDelay(attempt: attempt), attempt: attempt, portIsOpen: false)
      return
    }
    if outage != nil {
      logger.log(.notice, "display \(name): \(path) is back; re-initialising")
    } else {
      logger.log(.info, "display \(name): \(path) open at \(settings.baudRate) baud")
    }
    outage = nil
    needsInitialization = true
    hasNewFrame = wanted != nil
    pending.removeAll()
    received.removeAll()
    awaitingAnswer = nil
    wireFreeAt = now
    pump(at: now)
  }

  /// Closes the port after an error and schedules reopening it.
  private func fail(_ reason: String, at now: Instant) {
    if outage == nil || outage?.portIsOpen == true {
      logger.log(.warning, "display \(name): \(reason); offline, reopening \(path) when it returns")
    }
    port?.close()
    port = nil
    pending.removeAll()
    awaitingAnswer = nil
    outage = Outage(retryAt: now + Self.firstRetryDelay, attempt: 0, portIsOpen: false)
  }

  /// The wait before reopening attempt `attempt` (from 0): 250 ms, doubled each time, at
  /// most 5 s.
  public static func retryDelay(attempt: Int) -> Duration {
    var delay = firstRetryDelay
    for _ in 0..<min(attempt, 10) where delay < longestRetryDelay {
      delay = delay * 2
    }
    return min(delay, longestRetryDelay)
  }

  /// The error with a hint for the usual causes.
  private static func explain(_ error: any Error) -> String {
    guard let error = error as? IOError else { return "\(error)" }
    switch error.errno {
    case .permissionDenied:
      return "\(error): the user running scoreboardd needs to be in the 'dialout' group"
    case .noSuchFileOrDirectory:
      return "\(error): is the adapter plugged in?"
    default:
      return "\(error)"
    }
  }
}
