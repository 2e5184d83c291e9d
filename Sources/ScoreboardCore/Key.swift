/// A key as keymaps name it: a kernel key, optionally with Shift held or held long
/// (`KEY_KP7`, `KEY_ENTER`, `shift+KEY_TAB`, `long+BTN_0`).
///
/// A key is its code, so the names the kernel gives one code (`BTN_0` and `BTN_MISC`)
/// are one key, and a key event is plain data: looking up its binding compares numbers.
public struct Key: Hashable, Sendable, CustomStringConvertible {
  /// The kernel's code of the key.
  public var code: KeyCode
  /// Whether Shift was held.
  public var shift: Bool
  /// Whether the key was held past the keypad's long-press time (GPIO buttons).
  public var long: Bool

  public init(_ code: KeyCode, shift: Bool = false, long: Bool = false) {
    self.code = code
    self.shift = shift
    self.long = long
  }

  /// The key of a kernel key name (`KEY_KP7`, `BTN_0`); nil for a name the kernel does
  /// not define.
  public init?(_ name: String, shift: Bool = false, long: Bool = false) {
    guard let code = KeyCode(name: name) else { return nil }
    self.init(code, shift: shift, long: long)
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
    self.init(String(name), shift: shift, long: long)
  }

  /// The kernel's name of the key (the first, where the header has aliases).
  public var name: String { code.description }

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
