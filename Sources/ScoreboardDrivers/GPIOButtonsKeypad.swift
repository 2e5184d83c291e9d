import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// Push buttons wired to GPIO lines, one line per button, each reporting a key.
///
/// The lines are one request of inputs reporting both edges. With `kernelDebounce`
/// (libgpiod v2) the kernel debounces them and their edges pass straight through;
/// otherwise (libgpiod v1) a `ButtonDebouncer` does the same in user space. Keys bound
/// to a long press go through a `LongPressDetector`. Events carry the kernel's edge
/// timestamps, not the time they were read: the instant the level became stable, its
/// last edge. The kernel's debouncer stamps its events when its timer fires, one
/// debounce period after that edge, so those stamps are taken back by the period (never
/// before an earlier edge): a clock started and stopped on a button runs from the
/// press with either libgpiod.
///
/// The buttons' levels are read when the lines are requested: a button held then is
/// taken as down, so it reports no press, only its release.
public final class GPIOButtonsKeypad: Keypad {
  /// The keypad's name in the configuration, carried by its events.
  public let name: String
  /// The key of each button, in the order of the request's lines.
  public let keys: [Key]
  /// The line request, owned by the keypad.
  private let lines: any GPIOLines
  private var debouncer: ButtonDebouncer
  /// How much later than the last edge the kernel stamps a debounced event (zero when
  /// scoreboardd debounces).
  private let stampDelay: Int64
  /// The time of the latest edge passed on, so that one taken back stays in order.
  private var lastEdge: Int64 = .min
  private var longPresses: LongPressDetector
  private var isClosed = false

  /// Requests the buttons' lines and reads their levels.
  ///
  /// - Parameters:
  ///   - name: The keypad's name, carried by its events and part of the lines' consumer.
  ///   - buttons: Each button's key and line.
  ///   - bias: The lines' bias; buttons to ground need a pull-up.
  ///   - activeLow: Whether a pressed button reads low (a button to ground).
  ///   - debounce: How long a line keeps its level before the level counts.
  ///   - longPress: How long a key of `longPressKeys` is held to be a long press.
  ///   - longPressKeys: The keys whose keymap binds a long press (`long+BTN_0`), as the
  ///     buttons report them (`BTN_0`).
  ///   - backend: Where the lines are requested.
  ///   - kernelDebounce: Whether the kernel debounces (libgpiod v2); if not, the keypad
  ///     does.
  ///   - logger: Where the keypad says how it is set up.
  /// - Throws: `GPIOError` naming the line when the request fails (a line that does not
  ///   exist, or is busy) or a line cannot be read.
  public init(
    name: String, buttons: [(key: Key, line: GPIOLine)],
    bias: GPIOLineSettings.Bias = .pullUp, activeLow: Bool = true,
    debounce: Duration = .milliseconds(20), longPress: Duration = .seconds(1),
    longPressKeys: Set<Key>, backend: any GPIOBackend, kernelDebounce: Bool, logger: Logger
  ) throws {
    precondition(!buttons.isEmpty, "a keypad of GPIO buttons needs a button")
    self.name = name
    keys = buttons.map(\.key)
    let settings = GPIOLineSettings.input(
      bias: bias, activeLow: activeLow, edges: .both,
      debounce: kernelDebounce ? debounce.nanoseconds : nil)
    lines = try backend.request(
      buttons.map { ($0.line, settings) }, consumer: "scoreboardd \(name)")
    var levels: [Bool] = []
    do {
      for line in 0..<lines.count {
        levels.append(try lines.get(line))
      }
    } catch {
      lines.release()
      throw error
    }
    // With the kernel debouncing, a zero period passes each edge on as it comes.
    debouncer = ButtonDebouncer(period: kernelDebounce ? .zero : debounce, levels: levels)
    stampDelay = kernelDebounce ? debounce.nanoseconds : 0
    longPresses = LongPressDetector(keypad: name, longPressKeys: longPressKeys, holdTime: longPress)
    logger.debug(
      "keypad \(name): \(buttons.count) buttons on "
        + buttons.map(\.line.description).joined(separator: ", ")
        + ", debounced by \(kernelDebounce ? "the kernel" : "scoreboardd")")
    for (key, isDown) in zip(keys, levels) where isDown {
      logger.debug("keypad \(name): \(key) is held at start; its press is not reported")
    }
  }

  deinit {
    close()
  }

  /// The lines' edge events, and the end of a debounce period or of a long-press time.
  public var waitingFor: DeviceWait {
    let deadlines = [debouncer.nextDeadline, longPresses.nextDeadline].compactMap { $0 }
    return DeviceWait(
      descriptor: lines.eventDescriptor, events: .readable, deadline: deadlines.min())
  }

  /// Reads the waiting edges and returns the key events they complete by `time`.
  ///
  /// - Throws: `GPIOError` when the edges cannot be read.
  public func readEvents(at time: Instant) throws -> [KeyEvent] {
    precondition(!isClosed, "readEvents(at:) after close()")
    return keyEvents(for: try lines.readEvents(), at: time)
  }

  /// Ends the debounce periods and long-press times due by `now`. Edges still waiting
  /// to be read are taken first, so one that came just before the deadline counts; a
  /// failing read is left to the next `readEvents(at:)`, which reports it.
  public func service(at now: Instant) -> [KeyEvent] {
    precondition(!isClosed, "service(at:) after close()")
    return keyEvents(for: (try? lines.readEvents()) ?? [], at: now)
  }

  /// Releases the lines; calling it again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    lines.release()
  }

  private func keyEvents(for edges: [GPIOEdgeEvent], at now: Instant) -> [KeyEvent] {
    var changes: [ButtonDebouncer.Change] = []
    for edge in edges.sorted(by: { $0.timestamp < $1.timestamp }) {
      let (taken, overflow) = edge.timestamp.subtractingReportingOverflow(stampDelay)
      let time = max(overflow ? edge.timestamp : taken, lastEdge)
      lastEdge = time
      changes += debouncer.edge(line: edge.line, value: edge.value, at: Instant(nanoseconds: time))
    }
    changes += debouncer.advance(to: now)
    var events: [KeyEvent] = []
    for change in changes {
      let key = keys[change.line]
      events +=
        change.value
        ? longPresses.press(key, at: change.time) : longPresses.release(key, at: change.time)
    }
    return events + longPresses.advance(to: now)
  }
}
