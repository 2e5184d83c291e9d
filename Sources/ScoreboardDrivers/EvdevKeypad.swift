import LinuxIO
import ScoreboardCore

/// A keypad or keyboard read through the Linux input subsystem (evdev): a USB numpad,
/// a keyboard, or GPIO buttons that a device-tree overlay turned into an input device.
///
/// On each open the keypad grabs the device (EVIOCGRAB) so that its keys no longer reach
/// the console, switches its timestamps to the monotonic clock (EVIOCSCLOCKID; where that
/// fails, events carry the time they were read), sets its NumLock LED if asked, and reads
/// which keys are held (those report no press, only their release). `EvdevKeyDecoder`
/// turns its events into key events; it describes Shift, NumLock and the recovery after
/// the kernel dropped events (`SYN_DROPPED`).
///
/// Hot-plug: when the device is unplugged (a read fails with `ENODEV`, or a FIFO's writer
/// closes it), the keypad closes it at once, releases the keys it held, logs it, and
/// waits on a `DirectoryWatcher` over the input folder, its `by-id` and `by-path` folders
/// and the folder of the selector. On each change there (a node created, its permissions
/// set by udev, a link moved in) it looks for a matching device again, so a device that
/// comes back under another event number is found by its link, pattern or name. Nothing
/// polls on a timer. The device's and the watcher's descriptors are owned by the keypad.
public final class EvdevKeypad: Keypad {
  /// The keypad's name in the configuration, carried by its events.
  public let name: String
  /// The device the keypad reads.
  public let selector: DeviceSelector
  private let grab: Bool
  private let ignoreNumLock: Bool
  private let numLockLED: Bool?
  private let inputDirectory: String
  private let inspector: any InputDeviceInspector
  private let logger: Logger

  /// The open device; nil while the keypad waits for one.
  private var device: InputDevice?
  private var decoder: EvdevKeyDecoder
  /// The watcher of the folders where the device appears, while the keypad waits.
  private var watcher: DirectoryWatcher?
  /// Since when the keypad waits for its device.
  private var absentSince: Instant?
  /// The last reason a device was found but could not be opened, logged once.
  private var lastFailure: String?
  /// Whether reading the keys down failed on the open device (logged once per device).
  private var keysDownUnreadable = false
  private var isClosed = false

  /// Opens the device `selector` names; when there is none yet, logs it and waits for it.
  ///
  /// - Parameters:
  ///   - name: The keypad's name, carried by its events and its log messages.
  ///   - selector: Which device to read.
  ///   - grab: Whether to take the device's events for the keypad alone (EVIOCGRAB).
  ///   - ignoreNumLock: Whether to drop `KEY_NUMLOCK`, which some numpads wrap around
  ///     their keys.
  ///   - numLockLED: The NumLock LED to set on each open (`true` on, so a numpad sends
  ///     digits; `false` off); nil leaves it. Setting it opens the device read-write.
  ///   - required: Whether a missing device is an error instead of something to wait for.
  ///   - inputDirectory: The folder of the event nodes (`/dev/input`).
  ///   - inspector: Answers the ioctls asked of the device.
  ///   - logger: Where the keypad reports its device coming and going.
  ///   - now: The time now.
  /// - Throws: `InputDeviceNotFound` when `required` and no device matches, with the
  ///   reason a matching one could not be opened (a permission error names the device
  ///   and the `input` group); `IOError` when the folders cannot be watched.
  public init(
    name: String, selector: DeviceSelector, grab: Bool = true, ignoreNumLock: Bool = true,
    numLockLED: Bool? = nil, required: Bool = false, inputDirectory: String = "/dev/input",
    inspector: any InputDeviceInspector = KernelInputDeviceInspector(), logger: Logger,
    at now: Instant
  ) throws {
    self.name = name
    self.selector = selector
    self.grab = grab
    self.ignoreNumLock = ignoreNumLock
    self.numLockLED = numLockLED
    self.inputDirectory = inputDirectory
    self.inspector = inspector
    self.logger = logger
    decoder = EvdevKeyDecoder(
      keypad: name, ignoreNumLock: ignoreNumLock, usesEventTimes: false, keysDown: [],
      logger: logger)
    let search = findDevice()
    if let found = search.found {
      connect(found.device, deviceName: found.deviceName, at: now)
      return
    }
    let notFound = InputDeviceNotFound(
      selector: selector, inputDirectory: inputDirectory, reason: search.failure)
    if required {
      throw notFound
    }
    logger.warning("keypad \(name): \(notFound); waiting for it")
    lastFailure = search.failure
    try waitForDevice(at: now)
  }

  deinit {
    close()
  }

  /// The path of the open device; nil while the keypad waits for one.
  public var devicePath: String? {
    device?.path
  }

  /// Whether the device is open now.
  public var isOnline: Bool { device != nil }

  /// The device becoming readable or, while there is none, the folders where it appears
  /// changing.
  public var waitingFor: DeviceWait {
    let descriptor = device?.fileDescriptor ?? watcher?.fileDescriptor
    return descriptor.map { DeviceWait(descriptor: $0, events: .readable) } ?? .nothing
  }

  /// Reads the device's events and returns its key events; or, while the keypad waits,
  /// looks at the folders' changes and opens a device that matches. An unplugged device
  /// returns the releases of the keys it held.
  ///
  /// - Throws: `IOError` naming the operation and the device or folder, for errors other
  ///   than the device going away.
  public func readEvents(at time: Instant) throws -> [KeyEvent] {
    precondition(!isClosed, "readEvents(at:) after close()")
    if let device {
      decoder.beginRead()
      let isOpen: Bool
      do {
        isOpen = try device.readEvents { event in
          decoder.decode(event, readAt: time) { keysDown(of: device) }
        }
      } catch let error as IOError where error.errno == .noSuchDevice {
        isOpen = false
      }
      guard isOpen else { return try unplugged(at: time) }
      return decoder.keyEvents
    }
    if let watcher, !(try watcher.readChanges()).isEmpty {
      connectIfPresent(at: time)
    }
    return []
  }

  /// Closes the device, which ends the grab, and stops watching the folders; calling it
  /// again does nothing. The NumLock LED stays as it was set.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    device?.close()
    device = nil
    watcher?.close()
    watcher = nil
  }

  /// The first device that matches the selector and opens, with its name; or why a
  /// matching one could not be opened.
  private func findDevice() -> (
    found: (device: InputDevice, deviceName: String?)?, failure: String?
  ) {
    var failure: String?
    for path in selector.candidatePaths(inputDirectory: inputDirectory) {
      let device: InputDevice
      do {
        device = try InputDevice(path: path, writable: numLockLED != nil)
      } catch let error as IOError
        where [.noSuchFileOrDirectory, .noSuchDevice].contains(error.errno)
      {
        // Gone, or going: not a device to report.
        continue
      } catch {
        failure = failure ?? "\(error)"
        continue
      }
      let deviceName = try? inspector.name(of: device)
      if case .name(let wanted) = selector, deviceName != wanted {
        device.close()
        continue
      }
      return ((device, deviceName), nil)
    }
    return (nil, failure)
  }

  /// Sets up `device` and reads it from now on.
  private func connect(_ device: InputDevice, deviceName: String?, at time: Instant) {
    watcher?.close()
    watcher = nil
    if grab {
      do {
        try device.grab()
      } catch {
        logger.warning(
          "keypad \(name): \(error); its keys also reach the console and other programs")
      }
    }
    var usesEventTimes = true
    do {
      try inspector.useMonotonicClock(on: device)
    } catch {
      logger.debug("keypad \(name): \(error); events carry the time they are read")
      usesEventTimes = false
    }
    if let numLockLED {
      do {
        try device.setLED(InputEvent.numLockLED, on: numLockLED)
      } catch {
        logger.warning("keypad \(name): cannot set the NumLock LED: \(error)")
      }
    }
    decoder = EvdevKeyDecoder(
      keypad: name, ignoreNumLock: ignoreNumLock, usesEventTimes: usesEventTimes,
      keysDown: (try? inspector.pressedKeys(of: device)) ?? [], logger: logger)
    self.device = device
    keysDownUnreadable = false
    let path = FileSystem.resolvingLinks(device.path) ?? device.path
    let away = absentSince.map { " after \((time - $0).milliseconds / 1000) s away" } ?? ""
    logger.notice(
      "keypad \(name): \(path)\(deviceName.map { " (\($0))" } ?? "") connected\(away)")
    absentSince = nil
    lastFailure = nil
  }

  /// Closes the unplugged device, releases its keys and waits for it to come back.
  private func unplugged(at time: Instant) throws -> [KeyEvent] {
    let releases = decoder.releaseAll(at: time)
    logger.warning("keypad \(name): device unplugged; waiting for it")
    try waitForDevice(at: time)
    return releases
  }

  /// Watches the folders where the device appears, closes the device if one is open,
  /// then looks for a device once, so that one that appeared in between is not missed.
  /// The watcher is made while the device is still open, so that its descriptor number
  /// differs from the device's.
  private func waitForDevice(at time: Instant) throws {
    let watcher = try DirectoryWatcher()
    for directory in selector.watchedDirectories(inputDirectory: inputDirectory) {
      try watcher.watch(directory)
    }
    device?.close()
    device = nil
    self.watcher = watcher
    absentSince = time
    connectIfPresent(at: time)
  }

  /// Opens a matching device if there is one now. Why one could not be opened is logged
  /// once (at debug level: udev sets a new node's permissions just after creating it).
  private func connectIfPresent(at time: Instant) {
    let search = findDevice()
    if let found = search.found {
      connect(found.device, deviceName: found.deviceName, at: time)
    } else if let failure = search.failure, failure != lastFailure {
      logger.debug("keypad \(name): \(failure); trying again on the next change")
      lastFailure = failure
    }
  }

  /// The keys down now; none when they cannot be read (said once per device: a FIFO
  /// sending SYN_DROPPED after SYN_DROPPED would fill the journal).
  private func keysDown(of device: InputDevice) -> Set<UInt16> {
    do {
      return try inspector.pressedKeys(of: device)
    } catch {
      if !keysDownUnreadable {
        keysDownUnreadable = true
        logger.warning("keypad \(name): \(error); taking every key as released")
      }
      return []
    }
  }
}
