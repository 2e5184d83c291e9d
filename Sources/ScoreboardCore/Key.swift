/// A key as keymaps name it: a kernel key name, optionally with Shift held
/// (`KEY_KP7`, `KEY_ENTER`, `shift+KEY_TAB`).
public struct Key: Hashable, Sendable, CustomStringConvertible {
  /// The kernel name, `KEY_...` or `BTN_...`.
  public var name: String
  /// Whether Shift was held.
  public var shift: Bool

  public init(_ name: String, shift: Bool = false) {
    self.name = name
    self.shift = shift
  }

  /// Parses `KEY_X` or `shift+KEY_X` (the prefix in any case). Returns nil for a name the
  /// kernel does not define.
  public init?(parsing text: String) {
    var name = Substring(text)
    var shift = false
    if name.lowercased().hasPrefix("shift+") {
      shift = true
      name = name.dropFirst("shift+".count)
    }
    guard KeyCode(name: String(name)) != nil else { return nil }
    self.init(String(name), shift: shift)
  }

  public var description: String {
    shift ? "shift+" + name : name
  }
}

/// A key going down, coming up, or repeating while held, from one keypad.
public struct KeyEvent: Hashable, Sendable {
  /// How the key changed.
  public enum Kind: Hashable, Sendable {
    case press
    case release
    /// The key was held long enough for the keypad's autorepeat.
    case autorepeat
  }

  /// The configured name of the keypad it came from.
  public var keypad: String
  public var key: Key
  public var kind: Kind
  public var time: Instant

  public init(keypad: String, key: Key, kind: Kind, time: Instant) {
    self.keypad = keypad
    self.key = key
    self.kind = kind
    self.time = time
  }
}
