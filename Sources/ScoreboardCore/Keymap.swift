/// What each key of a keypad does.
public struct Keymap: Hashable, Sendable {
  /// The keymap's name in the configuration (`[keymap numpad]`).
  public var name: String
  public var bindings: [Key: Action]
  /// The kinds of action a held key repeats when the keypad sends autorepeat
  /// (`add`: a held +1 key keeps counting); the others act once per press.
  public var repeating: Set<Action.Kind>

  /// What repeats unless a keymap says otherwise: stepping values and brightness, and
  /// backspace.
  public static let defaultRepeating: Set<Action.Kind> = [.add, .brightness, .backspace]

  public init(
    name: String, bindings: [Key: Action], repeating: Set<Action.Kind> = Keymap.defaultRepeating
  ) {
    self.name = name
    self.bindings = bindings
    self.repeating = repeating
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
    guard event.kind != .release, let found = bindings.index(forKey: event.key) else {
      return nil
    }
    if event.kind == .autorepeat, !repeating.contains(bindings[found].value.kind) {
      return nil
    }
    return found
  }
}
