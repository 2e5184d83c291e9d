import ScoreboardCore

/// Tells short presses from long ones for the buttons whose keymap binds a long press
/// (`long+BTN_0`), and lets every other key through at once.
///
/// A press of such a key waits: released before `holdTime`, it becomes the short key
/// (a press and a release, both at the release time); still held when `holdTime` has
/// passed, it becomes the long key (`Key(code, long: true)`, a press at that moment),
/// and its release reports nothing. Other keys' presses and releases pass through
/// unchanged, without added latency.
public struct LongPressDetector: Sendable {
  /// The name carried by the events.
  public let keypad: String
  /// How long a key is held before its press is a long one.
  public let holdTime: Duration
  /// The keys that wait for a long press, in their short form (`BTN_0`).
  public let longPressKeys: Set<Key>
  /// The keys of `longPressKeys` that are down.
  private var held: [Key: Hold] = [:]

  private enum Hold: Sendable {
    /// Down since this time, not yet long.
    case waiting(since: Instant)
    /// Its long key was reported; its release reports nothing.
    case long
  }

  /// A detector for the keys in `longPressKeys`: the keys as the buttons report them
  /// (`BTN_0`); a key given in its long form (`long+BTN_0`) counts the same.
  public init(keypad: String, longPressKeys: Set<Key>, holdTime: Duration) {
    self.keypad = keypad
    self.holdTime = holdTime
    self.longPressKeys = Set(longPressKeys.map { Key($0.code, shift: $0.shift) })
  }

  /// When a held key becomes a long press; nil when no key waits for one.
  public var nextDeadline: Instant? {
    held.values.compactMap(deadline(of:)).min()
  }

  /// Takes `key` going down at `time`, after reporting the long presses due by then.
  public mutating func press(_ key: Key, at time: Instant) -> [KeyEvent] {
    var events = advance(to: time)
    if !longPressKeys.contains(key) {
      events.append(KeyEvent(keypad: keypad, key: key, kind: .press, time: time))
    } else if held[key] == nil {
      held[key] = .waiting(since: time)
    }
    return events
  }

  /// Takes `key` coming up at `time`, after reporting the long presses due by then.
  public mutating func release(_ key: Key, at time: Instant) -> [KeyEvent] {
    var events = advance(to: time)
    if !longPressKeys.contains(key) {
      events.append(KeyEvent(keypad: keypad, key: key, kind: .release, time: time))
    } else if case .waiting = held.removeValue(forKey: key) {
      events.append(KeyEvent(keypad: keypad, key: key, kind: .press, time: time))
      events.append(KeyEvent(keypad: keypad, key: key, kind: .release, time: time))
    }
    return events
  }

  /// Reports the keys held for `holdTime` by `now` as long presses, in time order.
  public mutating func advance(to now: Instant) -> [KeyEvent] {
    let due = held.compactMap { key, hold in deadline(of: hold).map { (key: key, time: $0) } }
      .filter { $0.time <= now }
      .sorted { ($0.time, $0.key.name) < ($1.time, $1.key.name) }
    return due.map { key, time in
      held[key] = .long
      return KeyEvent(
        keypad: keypad, key: Key(key.code, shift: key.shift, long: true), kind: .press, time: time)
    }
  }

  private func deadline(of hold: Hold) -> Instant? {
    guard case .waiting(let since) = hold else { return nil }
    return since + holdTime
  }
}
