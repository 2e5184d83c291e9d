/// What each key of a keypad does.
public struct Keymap: Hashable, Sendable {
  /// The keymap's name in the configuration (`[keymap numpad]`).
  public var name: String
  public var bindings: [Key: Action] {
    didSet { lookup = Self.lookup(of: bindings) }
  }
  /// The kinds of action a held key repeats when the keypad sends autorepeat
  /// (`add`: a held +1 key keeps counting); the others act once per press.
  public var repeating: Set<Action.Kind>
  /// Each key of `bindings` as a number (`number(of:)`), in increasing order, with where
  /// its binding is: a key event finds it by a binary search, which hashes nothing.
  private var lookup: [(key: UInt32, binding: Dictionary<Key, Action>.Index)]

  /// What repeats unless a keymap says otherwise: stepping values and brightness, and
  /// backspace.
  public static let defaultRepeating: Set<Action.Kind> = [.add, .brightness, .backspace]

  public init(
    name: String, bindings: [Key: Action], repeating: Set<Action.Kind> = Keymap.defaultRepeating
  ) {
    self.name = name
    self.bindings = bindings
    self.repeating = repeating
    lookup = Self.lookup(of: bindings)
  }

  public static func == (lhs: Keymap, rhs: Keymap) -> Bool {
    lhs.name == rhs.name && lhs.bindings == rhs.bindings && lhs.repeating == rhs.repeating
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(bindings)
    hasher.combine(repeating)
  }

  /// The action a key event triggers: a press triggers its binding, an autorepeat only a
  /// repeating one, a release nothing.
  public func action(for event: KeyEvent) -> Action? {
    binding(for: event).map { bindings[$0].value }
  }

  /// Where in `bindings` the action a key event triggers is (`action(for:)`). The key's
  /// path asks for this: an index needs no destruction, where an optional action is
  /// destroyed through the runtime's generic code, in the standard library's pages.
  public func binding(for event: KeyEvent) -> Dictionary<Key, Action>.Index? {
    guard event.kind != .release else { return nil }
    let wanted = Self.number(of: event.key)
    var low = 0
    var high = lookup.count
    while low < high {
      let middle = (low + high) / 2
      if lookup[middle].key < wanted {
        low = middle + 1
      } else {
        high = middle
      }
    }
    guard low < lookup.count, lookup[low].key == wanted else { return nil }
    let found = lookup[low].binding
    if event.kind == .autorepeat, !repeating.contains(bindings[found].value.kind) {
      return nil
    }
    return found
  }

  /// A key as one number, unique to it: its code, whether Shift was held, whether it was
  /// held long.
  private static func number(of key: Key) -> UInt32 {
    UInt32(key.code.rawValue) << 2 | (key.shift ? 2 : 0) | (key.long ? 1 : 0)
  }

  private static func lookup(of bindings: [Key: Action]) -> [(
    key: UInt32, binding: Dictionary<Key, Action>.Index
  )] {
    bindings.indices.map { (number(of: bindings[$0].key), $0) }.sorted { $0.key < $1.key }
  }
}
