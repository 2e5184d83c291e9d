@preconcurrency import Glibc
import TestSupport
import Testing

@testable import LinuxIO

@Suite struct SystemdNotifierTests {
  /// A name in the abstract namespace no other test or process uses: the process's ID
  /// and the name of the test.
  static func abstractName(_ test: String = #function) -> String {
    "@scoreboardd-test-\(getpid())-\(test.prefix { $0 != "(" })"
  }

  @Test func sendsEachMessageAsOneDatagramToASocketPath() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/notify"
    let receiver = try DatagramReceiver(address: path)
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
    #expect(notifier.isEnabled)

    #expect(notifier.ready() == nil)
    #expect(notifier.status("Scores 12:10") == nil)
    #expect(notifier.watchdog() == nil)
    #expect(notifier.reloading(monotonicMicroseconds: 123_456_789) == nil)
    #expect(notifier.notify(["READY=1", "STATUS=Running"]) == nil)
    #expect(notifier.stopping() == nil)

    #expect(
      receiver.receive() == [
        "READY=1", "STATUS=Scores 12:10", "WATCHDOG=1",
        "RELOADING=1\nMONOTONIC_USEC=123456789", "READY=1\nSTATUS=Running", "STOPPING=1",
      ])
  }

  @Test func everyMessageGoesThroughOneSocket() throws {
    let name = Self.abstractName()
    let receiver = try DatagramReceiver(address: name)
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
    #expect(notifier.socket == nil)

    #expect(notifier.ready() == nil)
    let socket = try #require(notifier.socket)
    #expect(fcntl(socket.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    #expect(notifier.watchdog() == nil)
    #expect(notifier.socket == socket)
    #expect(receiver.receive() == ["READY=1", "WATCHDOG=1"])
  }

  @Test func sendsToAnAbstractName() throws {
    let name = Self.abstractName()
    let receiver = try DatagramReceiver(address: name)
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])

    #expect(notifier.ready() == nil)
    #expect(notifier.status("Ready: 2 displays, 1 keypad") == nil)

    #expect(receiver.receive() == ["READY=1", "STATUS=Ready: 2 displays, 1 keypad"])
  }

  @Test func statusKeepsToOneLine() throws {
    let name = Self.abstractName()
    let receiver = try DatagramReceiver(address: name)
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])

    #expect(notifier.status("display main lost\nreopening") == nil)

    #expect(receiver.receive() == ["STATUS=display main lost reopening"])
  }

  @Test(arguments: [[:], ["NOTIFY_SOCKET": ""], ["WATCHDOG_USEC": "2000000"]])
  func withoutNotifySocketEveryCallDoesNothing(environment: [String: String]) {
    let notifier = SystemdNotifier(environment: environment)

    #expect(!notifier.isEnabled)
    #expect(notifier.watchdogInterval == nil)
    #expect(notifier.ready() == nil)
    #expect(notifier.status("Running") == nil)
    #expect(notifier.reloading(monotonicMicroseconds: 1_000) == nil)
    #expect(notifier.watchdog() == nil)
    #expect(notifier.stopping() == nil)
  }

  @Test func aMissingReceiverIsAnErrorToLog() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/gone"
    let name = Self.abstractName()

    let pathError = SystemdNotifier(environment: ["NOTIFY_SOCKET": path]).ready()
    let nameError = SystemdNotifier(environment: ["NOTIFY_SOCKET": name]).ready()

    #expect(pathError == IOError(operation: "sendto", path: path, errno: .noSuchFileOrDirectory))
    #expect(
      nameError == IOError(operation: "sendto", path: name, errno: Errno(rawValue: ECONNREFUSED)))
  }

  @Test func aFullReceiverNeverBlocks() throws {
    let name = Self.abstractName()
    let receiver = try DatagramReceiver(address: name)
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])

    // Nobody reads: the receiver's queue fills, and then sending fails at once.
    var error: IOError?
    var sent = 0
    while error == nil && sent < 100_000 {
      error = notifier.watchdog()
      sent += 1
    }
    #expect(error == IOError(operation: "sendto", path: name, errno: .wouldBlock))

    // Once the receiver has read its queue, messages go through again.
    #expect(receiver.receive().count == sent - 1)
    #expect(notifier.watchdog() == nil)
    #expect(receiver.receive() == ["WATCHDOG=1"])
  }

  @Test(arguments: [
    ("run/notify", EINVAL),
    ("@", EINVAL),
    ("/" + String(repeating: "n", count: 107), ENAMETOOLONG),
    ("@" + String(repeating: "n", count: 108), ENAMETOOLONG),
  ])
  func anInvalidAddressIsAnErrorToLog(address: String, errorNumber: CInt) {
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": address])

    #expect(notifier.isEnabled)
    #expect(
      notifier.ready()
        == IOError(operation: "NOTIFY_SOCKET", path: address, errno: Errno(rawValue: errorNumber)))
  }

  @Test func theLongestAbstractNameIsUsedWhole() throws {
    // 107 characters after the `@`: with the leading NUL byte, all of `sun_path`.
    let name = Self.abstractName()
    let longest = name + String(repeating: "n", count: 108 - name.utf8.count)
    let receiver = try DatagramReceiver(address: longest)
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": longest])

    #expect(notifier.ready() == nil)
    #expect(receiver.receive() == ["READY=1"])
  }

  /// `WATCHDOG_PID` placeholders: the test's own process, another one.
  static let ownProcess = "<own pid>"
  static let otherProcess = "<other pid>"

  @Test(
    arguments: [
      ("2000000", nil, 2_000_000_000),
      ("2000000", ownProcess, 2_000_000_000),
      ("30000000", ownProcess, 30_000_000_000),
      ("2000000", otherProcess, nil),
      ("2000000", "systemd", nil),
      (nil, ownProcess, nil),
      ("", nil, nil),
      ("0", nil, nil),
      ("-2000000", nil, nil),
      ("2s", nil, nil),
      ("99999999999999999", nil, nil),
    ] as [(String?, String?, Int64?)])
  func watchdogIntervalComesFromTheEnvironment(
    microseconds: String?, processID: String?, expected: Int64?
  ) {
    var environment = ["NOTIFY_SOCKET": "/run/systemd/notify"]
    environment["WATCHDOG_USEC"] = microseconds
    environment["WATCHDOG_PID"] =
      switch processID {
      case Self.ownProcess: String(getpid())
      case Self.otherProcess: String(getpid() + 1)
      default: processID
      }

    #expect(SystemdNotifier(environment: environment).watchdogInterval == expected)
  }
}
