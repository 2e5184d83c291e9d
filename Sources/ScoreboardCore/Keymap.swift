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
    switch event.kind {
    case .press:
      bindings[event.key]
    case .autorepeat:
      bindings[event.key].flatMap { repeating.contains($0.kind) ? $0 : nil }
    case .release:
      nil
    }
  }
}
