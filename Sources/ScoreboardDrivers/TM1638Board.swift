import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A TM1638 "LED&KEY" board on three GPIO lines: a display of eight digits and eight LEDs
/// and, when its buttons are used, a keypad of eight buttons, in one object that owns the
/// one line request.
///
/// The display is a `GPIOSegmentDisplay` speaking `TM1638Protocol`. The chip has no
/// interrupt line, so the buttons are read by a scan: a key read every `scanInterval`
/// (from the start of the last), played in pieces between frames, never while the
/// board is offline (it is then retried with the display's back-off, and shows and
/// scans again together), and not at all without `buttons`. A `MatrixScanner` of one row
/// debounces the reads: a button's new state counts when the reads agree on it for
/// `debounce`, and its event is stamped with the instant of the first of those reads.
/// Keys bound to a long press go through a `LongPressDetector`. The first read is the
/// state: a button held then reports no press, only its release.
///
/// The board is both a `SegmentDisplay` and a `Keypad`; one `waitingFor` serves the two:
/// the display's next piece, try or read, the instant of a read whose keys are not yet
/// taken, and the next long press.
public final class TM1638Board: SegmentDisplay, Keypad {
  /// How the board's buttons are read as keys.
  public struct Buttons: Sendable {
    /// The key each of S1-S8 reports.
    public var keys: [Key]
    /// How often the buttons are read.
    public var scanInterval: Duration
    /// How long the reads must agree on a button's new state.
    public var debounce: Duration
    /// How long a key of `longPressKeys` is held to be a long press.
    public var longPress: Duration
    /// The keys whose keymap binds a long press, as the buttons report them (`BTN_0`).
    public var longPressKeys: Set<Key>

    /// Buttons reporting `keys`, one per button.
    public init(
      keys: [Key], scanInterval: Duration = .milliseconds(20),
      debounce: Duration = .milliseconds(20), longPress: Duration = .seconds(1),
      longPressKeys: Set<Key> = []
    ) {
      precondition(keys.count == TM1638Protocol.buttonCount, "a key for each of S1-S8")
      self.keys = keys
      self.scanInterval = scanInterval
      self.debounce = debounce
      self.longPress = longPress
      self.longPressKeys = longPressKeys
    }
  }

  /// The board's name in the configuration, carried by its key events.
  public let name: String
  /// The key each of S1-S8 reports; empty when the buttons are not read.
  public let keys: [Key]
  private let display: GPIOSegmentDisplay
  private let debounce: Duration
  private let logger: Logger
  /// The debounced buttons, from the first read on.
  private var scanner: MatrixScanner?
  private var longPresses: LongPressDetector

  /// Requests the lines at once (a request that fails is logged and retried) and, with
  /// `buttons`, starts reading them.
  ///
  /// - Parameters:
  ///   - addresses: The STB, CLK and DIO lines.
  ///   - encoder: The board's digits, grid order and timing.
  ///   - buttons: How the buttons are read; nil when they are not.
  ///   - clock, longestInlineWait: As for `GPIOSegmentDisplay`.
  public init(
    name: String, addresses: [GPIOLine], encoder: TM1638Protocol, buttons: Buttons?,
    backend: any GPIOBackend, logger: Logger, at now: Instant,
    clock: any TimeSource = KernelTimeSource(),
    longestInlineWait: Duration? = GPIOLinePlayer.defaultLongestInlineWait
  ) {
    self.name = name
    self.logger = logger
    keys = buttons?.keys ?? []
    debounce = buttons?.debounce ?? .zero
    longPresses = LongPressDetector(
      keypad: name, longPressKeys: buttons?.longPressKeys ?? [],
      holdTime: buttons?.longPress ?? .seconds(1))
    let keyScan = buttons.map {
      GPIOKeyScan(
        steps: encoder.keyRead(), interval: $0.scanInterval, isAnswer: TM1638Protocol.isAnswer)
    }
    display = GPIOSegmentDisplay(
      name: name, addresses: addresses, encoder: encoder, backend: backend, logger: logger,
      at: now, clock: clock, longestInlineWait: longestInlineWait, keyScan: keyScan)
  }

  /// Whether the lines are held and the board answered the last frame or read.
  public var isOnline: Bool { display.isOnline }

  /// Never: the board is no terminal.
  public var terminalHungUp: Bool { false }

  /// Whether a frame or a key read is being played.
  public var isPlaying: Bool { display.isPlaying }

  /// Shows `frame`: its cells on the digits, its indicators on the LEDs.
  public func show(_ frame: Frame, at now: Instant) {
    display.show(frame, at: now)
  }

  /// The earliest of the display's deadline, the instant of a read whose keys are not
  /// taken yet, and the next long press; never a descriptor.
  public var waitingFor: DeviceWait {
    let deadlines = [display.waitingFor.deadline, display.oldestKeyRead, longPresses.nextDeadline]
    return DeviceWait(deadline: deadlines.compactMap { $0 }.min())
  }

  /// Goes on playing frames and key reads.
  public func service(_ events: PollLoop.Events, at now: Instant) {
    display.service(events, at: now)
  }

  /// The key events of the reads played so far and of the long presses due by `now`.
  public func service(at now: Instant) -> [KeyEvent] {
    var events: [KeyEvent] = []
    for read in display.takeKeyReads() {
      let down = TM1638Protocol.buttonsDown(in: read.samples)
      guard var scanner else {
        var first = MatrixScanner(rows: 1, columns: keys.count, debounce: debounce)
        first.start(closed: down)
        scanner = first
        for (key, isDown) in zip(keys, down) where isDown {
          logger.debug("keypad \(name): \(key) is held at start; its press is not reported")
        }
        continue
      }
      for change in scanner.scanned(closed: down, at: read.time) {
        let key = keys[change.key]
        events +=
          change.isDown
          ? longPresses.press(key, at: change.time) : longPresses.release(key, at: change.time)
      }
      self.scanner = scanner
    }
    return events + longPresses.advance(to: now)
  }

  /// The same as `service(at:)`: the board has no descriptor to read.
  public func readEvents(at time: Instant) throws -> [KeyEvent] {
    service(at: time)
  }

  /// Reads the buttons no more; the display goes on until `shutdown(showing:)`.
  public func close() {
    display.stopKeyScan()
  }

  /// Finishes what is on the wire, shows `finalFrame` and releases the lines.
  public func shutdown(showing finalFrame: Frame?) {
    display.shutdown(showing: finalFrame)
  }
}
