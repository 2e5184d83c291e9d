/// The options of a keypad the kernel reads, such as a USB numeric keypad, read through
/// its event device in `/dev/input/` (`driver = evdev`).
public struct EvdevKeypadOptions: Hashable, Sendable {
  /// How the keypad's event device is found: by `device` or by `name`.
  public enum Selector: Hashable, Sendable {
    /// The device at an absolute path without pattern characters (`device =
    /// /dev/input/by-id/usb-...-event-kbd`, or `/dev/input/event3`).
    case path(String)
    /// The device at the path matching a shell pattern with `*`, `?` or `[...]` (`device =
    /// /dev/input/by-id/*-event-kbd`).
    case glob(String)
    /// The device the kernel gives this name, as `/proc/bus/input/devices` shows it (`name =
    /// SIGMACHIP USB Keyboard`), without the quotes the value may be written in.
    case name(String)
  }

  /// How the device is found (`device` or `name`, exactly one of them).
  public var selector: Selector
  /// Whether the keypad is used exclusively (`grab`): its keys then reach neither the
  /// console nor a login prompt.
  public var grab: Bool
  /// Whether `KEY_NUMLOCK` is dropped (`ignore-numlock`), which some numeric keypads send
  /// around every key when their own Num Lock state differs from the host's.
  public var ignoreNumLock: Bool
  /// The state the keypad's Num Lock LED is set to (`numlock-led`): on (true), off
  /// (false), or left as it is (nil).
  public var numLockLED: Bool?
  /// Whether a keypad that is not plugged in stops scoreboardd from starting (`required`);
  /// otherwise it is waited for, and read once it appears.
  public var required: Bool

  /// Creates evdev keypad options; the defaults grab the keypad, drop `KEY_NUMLOCK`, leave
  /// the LED alone and wait for a keypad that is not plugged in.
  public init(
    selector: Selector, grab: Bool = true, ignoreNumLock: Bool = true, numLockLED: Bool? = nil,
    required: Bool = false
  ) {
    self.selector = selector
    self.grab = grab
    self.ignoreNumLock = ignoreNumLock
    self.numLockLED = numLockLED
    self.required = required
  }
}
