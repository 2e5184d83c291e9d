import LinuxIO
import ScoreboardCore

/// Turns the events of one open input device into key events, keeping track of the keys
/// down.
///
/// - Keys are named from `KeyCode`; a code without a kernel name is dropped (logged at
///   debug level when pressed). A key pressed while Shift is down is `shift+KEY_X`, and
///   it is released and repeated under the name it was pressed with.
/// - `KEY_NUMLOCK` is dropped when `ignoreNumLock` is set: numpads that keep their own
///   NumLock state wrap each key in synthetic NumLock presses.
/// - After `SYN_DROPPED` (the device's buffer overflowed) the events up to and including
///   the next `SYN_REPORT` are incomplete and discarded. Then the keys down are read
///   again: keys believed down that are up are released, and keys down that were not
///   known are pressed, at the time of that `SYN_REPORT`.
struct EvdevKeyDecoder {
  private static let numLock = KeyCode(name: "KEY_NUMLOCK")!.rawValue
  /// Two codes, looked at for every key: an array, not a set, so that no hashing is done.
  private static let shiftKeys: [UInt16] = [
    KeyCode(name: "KEY_LEFTSHIFT")!.rawValue, KeyCode(name: "KEY_RIGHTSHIFT")!.rawValue,
  ]

  let keypad: String
  let ignoreNumLock: Bool
  /// Whether events carry their kernel timestamps (on the monotonic clock); if not, they
  /// carry the time they were read.
  let usesEventTimes: Bool
  let logger: Logger
  /// The keys believed down, each with the key its press reported, in the order
  /// pressed: a few at most, so an array, which a press neither hashes nor allocates
  /// for once it has held as many.
  private var down: [(code: UInt16, key: Key)] = []
  /// Events were dropped: discard up to the next `SYN_REPORT`.
  private var isDiscarding = false
  /// The key events of the read being decoded (since `beginRead()`): the next read
  /// uses their storage again once the caller has let go of them.
  private(set) var keyEvents: [KeyEvent] = []

  /// A decoder for a device whose keys in `keysDown` are held now: their presses are not
  /// reported, their releases are.
  init(
    keypad: String, ignoreNumLock: Bool, usesEventTimes: Bool, keysDown: Set<UInt16>,
    logger: Logger
  ) {
    self.keypad = keypad
    self.ignoreNumLock = ignoreNumLock
    self.usesEventTimes = usesEventTimes
    self.logger = logger
    _ = resynchronize(keysDown: keysDown, at: .zero)
    // Room for a few keys held at once from the start: without it, gdb showed every
    // press allocating a new buffer for `down` and freeing the old one.
    down.reserveCapacity(4)
  }

  /// Starts the key events of a new read: those of the last one are dropped.
  mutating func beginRead() {
    keyEvents.removeAll(keepingCapacity: true)
  }

  /// Decodes `event`, read at `readTime`, and appends the key events it makes to
  /// `keyEvents`. `keysDown` reads the keys down now, after events were dropped.
  mutating func decode(_ event: InputEvent, readAt readTime: Instant, keysDown: () -> Set<UInt16>) {
    let time = usesEventTimes ? Instant(nanoseconds: event.timestamp) : readTime
    let isReport = event.type == .synchronization && event.code == InputEvent.report
    if isDiscarding {
      if isReport {
        isDiscarding = false
        keyEvents += resynchronize(keysDown: keysDown(), at: time)
      }
    } else if event.type == .synchronization, event.code == InputEvent.dropped {
      isDiscarding = true
    } else if event.type == .key, let keyEvent = decodeKey(event, at: time) {
      keyEvents.append(keyEvent)
    }
  }

  /// Releases every key believed down: the device is gone.
  mutating func releaseAll(at time: Instant) -> [KeyEvent] {
    resynchronize(keysDown: [], at: time)
  }

  private mutating func decodeKey(_ event: InputEvent, at time: Instant) -> KeyEvent? {
    let code = event.code
    guard !(ignoreNumLock && code == Self.numLock) else { return nil }
    guard KeyCode(rawValue: code).hasName else {
      if event.value == 1 {
        logger.debug("keypad \(keypad): key code \(code) has no kernel name; ignored")
      }
      return nil
    }
    let held = down.firstIndex { $0.code == code }
    // The key as it reads with the keys down now: the one a press (or an event of a key
    // not known to be down) reports.
    func keyNow() -> Key {
      Key(KeyCode(rawValue: code), shift: isShifted(code, keysDown: down.lazy.map(\.code)))
    }
    switch event.value {
    case 1:
      let key = keyNow()
      if let held {
        down[held].key = key
      } else {
        down.append((code, key))
      }
      return KeyEvent(keypad: keypad, key: key, kind: .press, time: time)
    case 0:
      guard let held else {
        return KeyEvent(keypad: keypad, key: keyNow(), kind: .release, time: time)
      }
      return KeyEvent(keypad: keypad, key: down.remove(at: held).key, kind: .release, time: time)
    case 2:
      guard let held else {
        let key = keyNow()
        down.append((code, key))
        return KeyEvent(keypad: keypad, key: key, kind: .autorepeat, time: time)
      }
      return KeyEvent(keypad: keypad, key: down[held].key, kind: .autorepeat, time: time)
    default:
      return nil
    }
  }

  /// Brings the keys believed down in line with `keysDown`: releases, then presses, each
  /// in code order.
  private mutating func resynchronize(keysDown: Set<UInt16>, at time: Instant) -> [KeyEvent] {
    let reported = keysDown.filter {
      !(ignoreNumLock && $0 == Self.numLock) && KeyCode(rawValue: $0).hasName
    }
    var events: [KeyEvent] = []
    for held in down.sorted(by: { $0.code < $1.code }) where !reported.contains(held.code) {
      events.append(KeyEvent(keypad: keypad, key: held.key, kind: .release, time: time))
    }
    down.removeAll { !reported.contains($0.code) }
    for code in reported.sorted() where !down.contains(where: { $0.code == code }) {
      let key = Key(KeyCode(rawValue: code), shift: isShifted(code, keysDown: reported))
      down.append((code, key))
      events.append(KeyEvent(keypad: keypad, key: key, kind: .press, time: time))
    }
    return events
  }

  /// Whether Shift modifies `code`: a Shift key other than `code` is down.
  private func isShifted(_ code: UInt16, keysDown: some Collection<UInt16>) -> Bool {
    !Self.shiftKeys.contains(code) && keysDown.contains { Self.shiftKeys.contains($0) }
  }
}
