/// A key as keymaps name it: a kernel key name, optionally with Shift held or held
/// long (`KEY_KP7`, `KEY_ENTER`, `shift+KEY_TAB`, `long+BTN_0`).
public struct Key: Hashable, Sendable, CustomStringConvertible {
  /// The kernel name, `KEY_...` or `BTN_...`.
  public var name: String
  /// Whether Shift was held.
  public var shift: Bool
  /// Whether the key was held past the keypad's long-press time (GPIO buttons).
  public var long: Bool

  public init(_ name: String, shift: Bool = false, long: Bool = false) {
    self.name = name
    self.shift = shift
    self.long = long
  }

  /// Parses `KEY_X`, `shift+KEY_X` or `long+KEY_X` (prefixes in any case and order).
  /// Returns nil for a name the kernel does not define.
  public init?(parsing text: String) {
    var name = Substring(text)
    var shift = false
    var long = false
    while true {
      if name.lowercased().hasPrefix("shift+") {
        shift = true
        name = name.dropFirst("shift+".count)
      } else if name.lowercased().hasPrefix("long+") {
        long = true
        name = name.dropFirst("long+".count)
      } else {
        break
      }
    }
    guard KeyCode(name: String(name)) != nil else { return nil }
    self.init(String(name), shift: shift, long: long)
  }

  public var description: String {
    (long ? "long+" : "") + (shift ? "shift+" : "") + name
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
