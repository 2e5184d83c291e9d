import LinuxIO
import ScoreboardDrivers

/// Answers for FIFOs the ioctls an evdev keypad asks of its device.
final class FakeInputDeviceInspector: InputDeviceInspector {
  /// Device names by node name (`event3`), links followed.
  var names: [String: String] = [:]
  /// What EVIOCGKEY reports.
  var keysDown: Set<UInt16> = []
  /// Whether EVIOCSCLOCKID succeeds; if not, it fails as on a FIFO.
  var acceptsMonotonicClock = false
  /// How many times EVIOCGKEY was asked.
  private(set) var keyStateReads = 0

  func name(of device: InputDevice) throws -> String {
    let node = FileSystem.resolvingLinks(device.path)?.split(separator: "/").last
    guard let name = node.flatMap({ names[String($0)] }) else {
      throw IOError(operation: "EVIOCGNAME", path: device.path, errno: .notTerminal)
    }
    return name
  }

  func pressedKeys(of device: InputDevice) throws -> Set<UInt16> {
    keyStateReads += 1
    return keysDown
  }

  func useMonotonicClock(on device: InputDevice) throws {
    guard acceptsMonotonicClock else {
      throw IOError(operation: "EVIOCSCLOCKID", path: device.path, errno: .notTerminal)
    }
  }
}
