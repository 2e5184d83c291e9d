@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// The real daemon reading a USB keypad: `input_event` records written into a FIFO that
/// the configuration names as the keypad's device (the same reading path as a device
/// node; the ioctls fail on a FIFO and the keypad carries on without them).
@Suite(.serialized) struct EvdevScoreboardTests {
  /// A FIFO standing in for `/dev/input/eventN`, held open for writing by the test.
  final class FakeKeypadDevice {
    let path: String
    private let writer: CInt

    init(in folder: TemporaryFolder) throws {
      path = try folder.makeFIFO("event3")
      writer = open(path, O_RDWR | O_CLOEXEC)
      guard writer >= 0 else { throw SpawnError(message: "open \(path): errno \(errno)") }
    }

    deinit {
      close(writer)
    }

    /// Writes key events for `codes` (press or release or autorepeat), each followed by a
    /// SYN_REPORT, as the kernel does.
    func send(_ keys: [(code: UInt16, value: Int32)]) {
      var events: [InputEvent] = []
      for key in keys {
        events.append(InputEvent(type: .key, code: key.code, value: key.value))
        events.append(InputEvent(type: .synchronization, code: InputEvent.report, value: 0))
      }
      let bytes = InputEvent.records(events)
      _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
    }

    /// A press and a release of each key.
    func tap(_ codes: UInt16...) {
      send(codes.flatMap { code -> [(code: UInt16, value: Int32)] in [(code, 1), (code, 0)] })
    }
  }

  static let kp1: UInt16 = 79
  static let kp2: UInt16 = 80
  static let kpPlus: UInt16 = 78
  static let kpEnter: UInt16 = 96
  static let numLock: UInt16 = 69

  static func configuration(device: String) -> String {
    """
    [scoreboard]
    state-file = none
    control-socket = none

    [display main]
    driver = terminal
    digits = 2

    [field home]
    position = 1
    digits = 2

    [keypad numpad]
    driver = evdev
    device = \(device)
    grab = no
    keymap = numpad

    [keymap numpad]
    KEY_KP1 = digit 1
    KEY_KP2 = digit 2
    KEY_KPENTER = commit
    KEY_KPPLUS = add home +1
    """
  }

  @Test func keysFromTheDeviceChangeTheScore() throws {
    let folder = try TemporaryFolder()
    let device = try FakeKeypadDevice(in: folder)
    let path = try folder.write("evdev.conf", Self.configuration(device: device.path))
    let daemon = try DaemonProcess(arguments: ["--config", path], folder: folder)
    #expect(daemon.waitForLine { $0 == "main:  0" } != nil, "\(daemon.stderrText)")

    device.tap(Self.kp1, Self.kp2)
    #expect(daemon.waitForLine { $0 == "main: 12" } != nil, "type-over commits at the last digit")

    // A numpad that disagrees with the host's NumLock wraps each key in NumLock presses.
    device.tap(Self.numLock, Self.kp2, Self.numLock, Self.numLock, Self.kp1, Self.numLock)
    #expect(daemon.waitForLine { $0 == "main: 21" } != nil, "NumLock is ignored")

    // A held + key autorepeats: add repeats by default.
    device.send([(Self.kpPlus, 1), (Self.kpPlus, 2), (Self.kpPlus, 2), (Self.kpPlus, 0)])
    #expect(daemon.waitForLine { $0 == "main: 24" } != nil)

    daemon.send(signal: SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
