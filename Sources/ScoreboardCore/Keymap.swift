/// What each key of a keypad does.
public struct Keymap: Hashable, Sendable {
  /// The keymap's name in the configuration (`[keymap numpad]`).
  public var name: String
  public var bindings: [Key: Action]

  public init(name: String, bindings: [Key: Action]) {
    self.name = name
    self.bindings = bindings
  }

  /// The action a key event triggers: presses trigger their binding; releases nothing.
  public func action(for event: KeyEvent) -> Action? {
    switch event.kind {
    case .press, .autorepeat: bindings[event.key]
    case .release: nil
    }
  }
}
