import LinuxIO

/// What an evdev keypad asks an open input device by ioctl: its name, which keys are
/// down, and to stamp events with the monotonic clock.
///
/// `KernelInputDeviceInspector` asks the kernel. Tests that carry records through a FIFO,
/// where these ioctls fail, answer for the device instead.
public protocol InputDeviceInspector {
  /// The name the device reports (EVIOCGNAME), such as `SIGMACHIP USB Keyboard`.
  func name(of device: InputDevice) throws -> String

  /// The codes of the keys down now (EVIOCGKEY).
  func pressedKeys(of device: InputDevice) throws -> Set<UInt16>

  /// Makes the device stamp its events with `CLOCK_MONOTONIC` (EVIOCSCLOCKID); when this
  /// fails, the keypad stamps events with the time it reads them.
  func useMonotonicClock(on device: InputDevice) throws
}
