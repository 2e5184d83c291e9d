import LinuxIO

/// Asks the kernel, through the device's ioctls: the inspector of real devices.
public struct KernelInputDeviceInspector: InputDeviceInspector {
  public init() {}

  /// EVIOCGNAME.
  public func name(of device: InputDevice) throws -> String {
    try device.name()
  }

  /// EVIOCGKEY.
  public func pressedKeys(of device: InputDevice) throws -> Set<UInt16> {
    try device.pressedKeys()
  }

  /// EVIOCSCLOCKID with `CLOCK_MONOTONIC`.
  public func useMonotonicClock(on device: InputDevice) throws {
    try device.useMonotonicClock()
  }
}
