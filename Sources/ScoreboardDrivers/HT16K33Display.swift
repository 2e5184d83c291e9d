import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// One Adafruit HT16K33 backpack on an I²C bus: four cells. Several side by side make
/// one display, a driver each, as S7S modules do.
///
/// The bus is opened for each round of transfers and closed after it, so the daemon
/// holds nothing between frames: a bus that appears later (a USB adapter, a module
/// loaded) is found, and one that goes away is let go. `show` writes what changed
/// (`HT16K33Protocol`); the transfers are short (a changed digit is a three-byte write,
/// some 0.3 ms at 100 kHz), so they are made at once.
///
/// A backpack that does not answer, or whose bus cannot be opened, goes offline, logged
/// once; it is tried again with the serial displays' back-off
/// (`SerialDisplay.retryDelay(attempt:)`) and fully initialised when it answers. Every
/// `reinitializeInterval` it is initialised again, for a backpack that lost power and
/// came back dark without telling.
public final class HT16K33Display: SegmentDisplay {
  /// The display's name in the configuration.
  public let name: String
  /// The bus device.
  public let bus: String
  /// The chip's 7-bit address.
  public let address: UInt8
  /// How often the chip is fully initialised again; nil for never.
  public let reinitializeInterval: Duration?
  private let backend: any I2CBackend
  private let logger: Logger
  private var encoder: HT16K33Protocol
  /// The frame to show: the latest one given.
  private var wanted: Frame?
  /// The chip's state is unknown: the next transfers are a full initialisation.
  private var needsInitialization = true
  /// When the chip was last fully initialised.
  private var initializedAt: Instant?
  /// When to try again while the chip does not answer.
  private var outage: DisplayOutage?

  /// A backpack of `backpack`'s kind at `address` on the bus at `bus`. Nothing is sent
  /// before the first frame.
  public init(
    name: String, bus: String, address: UInt8, backpack: HT16K33Backpack, colon: Bool = false,
    reinitializeInterval: Duration? = .seconds(60), backend: any I2CBackend, logger: Logger
  ) {
    self.name = name
    self.bus = bus
    self.address = address
    self.reinitializeInterval = reinitializeInterval
    self.backend = backend
    self.logger = logger
    encoder = HT16K33Protocol(backpack: backpack, colon: colon)
  }

  /// Whether the chip answered its last transfers.
  public var isOnline: Bool { outage == nil }

  /// Sends what changed; while offline, keeps `frame` for the next try.
  public func show(_ frame: Frame, at now: Instant) {
    wanted = frame
    guard outage == nil else { return }
    refresh(at: now)
  }

  /// The next try while offline. The periodic re-initialisation is not waited for: it
  /// is `refreshDueAt`.
  public var waitingFor: DeviceWait {
    guard let outage else { return .nothing }
    return DeviceWait(deadline: outage.retryAt)
  }

  /// Tries again when the retry has come.
  public func service(_ events: PollLoop.Events, at now: Instant) {
    guard let outage, now >= outage.retryAt else { return }
    refresh(at: now)
  }

  /// When the periodic re-initialisation comes due, while the chip answers.
  public var refreshDueAt: Instant? {
    guard outage == nil, let interval = reinitializeInterval, let initializedAt else {
      return nil
    }
    return initializedAt + interval
  }

  /// Initialises the chip again if that is due.
  public func refreshIfDue(at now: Instant) {
    guard let due = refreshDueAt, now >= due else { return }
    refresh(at: now)
  }

  /// Shows `finalFrame` if the chip answers; failures are ignored.
  public func shutdown(showing finalFrame: Frame?) {
    guard let finalFrame, outage == nil, let bus = try? backend.openBus(bus) else { return }
    defer { bus.close() }
    wanted = finalFrame
    _ = try? send(on: bus)
  }

  /// Opens the bus and brings the chip to the wanted frame: in full when its state is
  /// unknown; the changes and then in full when its periodic re-initialisation is due.
  private func refresh(at now: Instant) {
    guard wanted != nil else { return }
    let reinitializing = refreshDueAt.map { now >= $0 } ?? false
    do {
      let bus = try backend.openBus(self.bus)
      defer { bus.close() }
      var initialized = try send(on: bus)
      if reinitializing, !initialized {
        needsInitialization = true
        initialized = try send(on: bus)
      }
      if initialized {
        initializedAt = now
      }
    } catch {
      goOffline("\(error)", at: now)
      return
    }
    if outage != nil {
      outage = nil
      logger.notice(
        "display \(name): the backpack at \(I2CError.hex(address)) answers again; re-initialised")
    }
  }

  /// Sends what brings the chip to the wanted frame: everything when its state is
  /// unknown, else the changes. Returns whether that was a full initialisation.
  private func send(on bus: any I2CBus) throws -> Bool {
    guard let wanted else { return false }
    let initializing = needsInitialization
    let writes = initializing ? encoder.initialize(showing: wanted) : encoder.update(to: wanted)
    needsInitialization = true
    for write in writes {
      switch write {
      case .command(let byte): try bus.sendByte(byte, to: address)
      case .ram(let start, let bytes): try bus.writeBlock(bytes, command: start, to: address)
      }
    }
    needsInitialization = false
    return initializing
  }

  /// Counts the chip as offline after `reason`, logging it (with the chip's address,
  /// as each backpack of a display logs its own) when it was online, and schedules the
  /// next try.
  private func goOffline(_ reason: String, at now: Instant) {
    outage = DisplayOutage.after(
      outage, display: "\(name) (\(I2CError.hex(address)))", reason: reason, logger: logger,
      at: now)
    needsInitialization = true
  }
}
