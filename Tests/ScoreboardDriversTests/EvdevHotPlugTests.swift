@preconcurrency import Glibc
import ScoreboardCore
import ScoreboardDrivers
import TestExpectations
import TestSupport
import Testing

@testable import LinuxIO

/// An evdev keypad whose device goes away and comes back, in a fake `/dev/input` of FIFOs
/// and links: it leaves the poll set, waits on the folders' changes, and finds the device
/// again under a new event number.
@Suite struct EvdevHotPlugTests {
  let folder: FakeInputFolder
  let inspector = FakeInputDeviceInspector()
  let log: LogCapture

  init() throws {
    folder = try FakeInputFolder()
    log = try LogCapture()
    inspector.names = [
      "event1": "Power Button", "event3": "SIGMACHIP USB Keyboard",
      "event7": "SIGMACHIP USB Keyboard",
    ]
  }

  func keypad(_ selector: DeviceSelector, required: Bool = false) throws -> EvdevKeypad {
    try EvdevKeypad(
      name: "numpad", selector: selector, grab: false, required: required,
      inputDirectory: folder.path, inspector: inspector, logger: log.logger, at: .zero)
  }

  /// Reads whenever the keypad is ready until it has a device; false if none came in 5 s.
  func waitUntilConnected(_ keypad: EvdevKeypad) throws -> Bool {
    while keypad.devicePath == nil {
      guard try keypad.readWhenReady(at: .milliseconds(2_000)) != nil else { return false }
    }
    return true
  }

  /// Types a digit on the node `node` and returns what the keypad reports.
  func typeDigit(on node: String, _ keypad: EvdevKeypad) throws -> [String] {
    try folder.send(FakeInputFolder.key("KEY_KP5", 1) + FakeInputFolder.key("KEY_KP5", 0), to: node)
    return try keypad.readEvents(count: 2, at: .zero).map { "\($0.kind) \($0.key)" }
  }

  /// Unplugs the device the keypad reads, with KEY_KP5 held: the keypad reports its
  /// release, leaves the device's descriptor, and does not wake up until something
  /// changes in the folders.
  func unplug(_ node: String, link: String? = nil, from keypad: EvdevKeypad) throws {
    let deviceDescriptor = try #require(keypad.waitingFor.descriptor)
    try folder.send(FakeInputFolder.key("KEY_KP5", 1), to: node)
    #expect(try keypad.readEvents(count: 1, at: .zero).count == 1)

    try folder.unplug(node, link: link)
    let events = try #require(try keypad.readWhenReady(at: .milliseconds(1_000)))
    #expect(
      events == [
        KeyEvent(keypad: "numpad", key: Key("KEY_KP5")!, kind: .release, time: .milliseconds(1_000))
      ])
    #expect(keypad.devicePath == nil)
    let watcherDescriptor = try #require(keypad.waitingFor.descriptor)
    #expect(watcherDescriptor != deviceDescriptor)
    #expect(try keypad.readWhenReady(at: .zero, timeout: .milliseconds(50)) == nil)
    #expect(
      log.lines.filter { $0.contains("unplugged") } == [
        "<4>keypad numpad: device unplugged; waiting for it"
      ])
  }

  @Test func comesBackUnderANewNumberFoundByGlob() throws {
    try folder.plug("event3")
    let oldLink = try folder.link("usb-SIGMACHIP_USB_Keyboard-event-kbd", in: "by-id", to: "event3")
    let keypad = try keypad(.glob("\(folder.path)/by-id/*-event-kbd"))
    #expect(keypad.devicePath == oldLink)
    #expect(try typeDigit(on: "event3", keypad) == ["press KEY_KP5", "release KEY_KP5"])

    try unplug("event3", link: oldLink, from: keypad)

    try folder.plug("event7")
    try folder.link("usb-SIGMACHIP_USB_Keyboard-event-kbd", in: "by-id", to: "event7")
    #expect(try waitUntilConnected(keypad))
    #expect(keypad.devicePath == oldLink)
    #expect(
      log.lines.last
        == "<5>keypad numpad: \(folder.path)/event7 (SIGMACHIP USB Keyboard) connected after 1 s away"
    )
    #expect(try typeDigit(on: "event7", keypad) == ["press KEY_KP5", "release KEY_KP5"])
  }

  @Test func comesBackUnderANewNumberFoundByName() throws {
    try folder.plug("event1")
    try folder.plug("event3")
    let keypad = try keypad(.name("SIGMACHIP USB Keyboard"))
    #expect(keypad.devicePath == "\(folder.path)/event3")

    try unplug("event3", from: keypad)

    try folder.plug("event7")
    #expect(try waitUntilConnected(keypad))
    #expect(keypad.devicePath == "\(folder.path)/event7")
    #expect(try typeDigit(on: "event7", keypad) == ["press KEY_KP5", "release KEY_KP5"])
  }

  @Test func absentAtStartAndFoundThroughAByIDLinkWhoseFolderAppearsLater() throws {
    let link = "\(folder.path)/by-id/usb-SIGMACHIP_USB_Keyboard-event-kbd"
    let keypad = try keypad(.path(link))
    #expect(keypad.devicePath == nil)
    #expect(keypad.waitingFor.descriptor != nil)
    #expect(log.lines == ["<4>keypad numpad: no input device at \(link); waiting for it"])
    #expect(try keypad.readWhenReady(at: .zero, timeout: .milliseconds(50)) == nil)

    // udev creates the node, then the folder of links with the first link.
    try folder.plug("event7")
    try folder.link("usb-SIGMACHIP_USB_Keyboard-event-kbd", in: "by-id", to: "event7")
    #expect(try waitUntilConnected(keypad))
    #expect(keypad.devicePath == link)
    #expect(try typeDigit(on: "event7", keypad) == ["press KEY_KP5", "release KEY_KP5"])

    try unplug("event7", link: link, from: keypad)
    try folder.plug("event4")
    try folder.link("usb-SIGMACHIP_USB_Keyboard-event-kbd", in: "by-id", to: "event4")
    #expect(try waitUntilConnected(keypad))
    #expect(try typeDigit(on: "event4", keypad) == ["press KEY_KP5", "release KEY_KP5"])
  }

  @Test func requiredKeypadThrowsWhenAbsent() throws {
    let pattern = "\(folder.path)/by-id/*-event-kbd"
    let error = expectError(InputDeviceNotFound.self) {
      try keypad(.glob(pattern), required: true)
    }
    #expect(error?.description == "no input device matches \(pattern)")
    #expect(
      InputDeviceNotFound(selector: .name("Pad"), inputDirectory: "/dev/input").description
        == "no input device in /dev/input is named \"Pad\"")
  }

  @Test func requiredKeypadSaysWhyItsDeviceDoesNotOpen() throws {
    let node = "\(folder.path)/event3"
    let socket = try Self.bindSocket(at: node)
    defer { close(socket) }
    let error = expectError(InputDeviceNotFound.self) {
      try keypad(.path(node), required: true)
    }
    let reason = "open \(node): \(Errno(rawValue: ENXIO))"
    #expect(error?.description == reason)
    #expect(
      error.map {
        InputDeviceNotFound(selector: .glob("/x/*"), inputDirectory: "/x", reason: $0.reason)
      }?
      .description == "no input device matching /x/* opens (\(reason))")

    _ = try keypad(.path(node))
    #expect(log.lines == ["<4>keypad numpad: \(reason); waiting for it"])
  }

  @Test func nodeThatCannotBeOpenedYetIsRetriedOnChangesAndLoggedOnce() throws {
    let keypad = try keypad(.glob("\(folder.path)/event*"))
    // A node that exists but does not open (a socket: ENXIO), as a device node does
    // before udev gives it its group.
    let node = "\(folder.path)/event7"
    let socket = try Self.bindSocket(at: node)
    defer { close(socket) }
    let first = try keypad.readWhenReady(at: .zero)
    #expect(first == [])
    // udev gives the node its group: a change, and another try to open it.
    chmod(node, 0o660)
    let (second, trace) = try SystemCallTrace.record { try keypad.readWhenReady(at: .zero) }
    #expect(second == [])
    #expect(trace.calls.contains { $0.name == "open" && $0.paths == [node] }, "\(trace.calls)")
    #expect(keypad.devicePath == nil)
    let failures = log.lines.filter { $0.contains("ENXIO") }
    #expect(
      failures == [
        "<7>keypad numpad: open \(node): \(Errno(rawValue: ENXIO)); trying again on the next change"
      ])

    unlink(node)
    try folder.plug("event7")
    let connected = try waitUntilConnected(keypad)
    #expect(connected)
    #expect(keypad.devicePath == node)
  }

  /// A Unix socket bound at `path`; the caller closes it.
  static func bindSocket(at path: String) throws -> CInt {
    let socket = Glibc.socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
    try #require(socket != -1)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      bytes.copyBytes(from: path.utf8.prefix(bytes.count - 1))
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(result == 0)
    return socket
  }
}
