@preconcurrency import Glibc

/// Tells systemd how a `Type=notify` service is doing: the `sd_notify` protocol,
/// implemented without libsystemd.
///
/// systemd puts the address of its notification socket in the environment variable
/// `NOTIFY_SOCKET`; each message is one datagram of `NAME=value` lines sent there.
/// Without the variable (a daemon started by hand) every call does nothing. No call
/// waits: when systemd's socket is full or gone, the call returns the error for the log
/// and the daemon carries on.
///
/// The notifier owns one datagram socket, opened by the first message, reused for every
/// later one and closed when the notifier is released.
public final class SystemdNotifier {
  /// The address from `NOTIFY_SOCKET`, nil when the variable is unset or empty.
  private let socketAddress: String?
  /// The datagram socket, opened by the first message.
  private(set) var socket: FileDescriptor?

  /// Whether messages are sent: `NOTIFY_SOCKET` is set.
  public var isEnabled: Bool {
    socketAddress != nil
  }

  /// How often systemd's watchdog expects `watchdog()`, in nanoseconds (the daemon pings
  /// at half of it); nil when there is no watchdog.
  ///
  /// It comes from `WATCHDOG_USEC`, when `WATCHDOG_PID` is unset or names this process
  /// (otherwise the watchdog is meant for another process) and `NOTIFY_SOCKET` is set
  /// (otherwise a ping could not reach systemd).
  public let watchdogInterval: Int64?

  /// A notifier configured by this process's environment: `NOTIFY_SOCKET`,
  /// `WATCHDOG_USEC` and `WATCHDOG_PID`, which stay set.
  public convenience init() {
    var environment: [String: String] = [:]
    for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
      if let value = getenv(name) {
        environment[name] = String(cString: value)
      }
    }
    self.init(environment: environment)
  }

  /// A notifier configured by `environment` in place of the process's environment.
  public init(environment: [String: String]) {
    let socketAddress = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    self.socketAddress = socketAddress
    watchdogInterval =
      socketAddress == nil
      ? nil
      : Self.watchdogNanoseconds(
        microseconds: environment["WATCHDOG_USEC"], processID: environment["WATCHDOG_PID"])
  }

  deinit {
    try? socket?.close()
  }

  /// Sends `assignments` (`READY=1`, `STATUS=Running`) to systemd as one message, one
  /// per line.
  ///
  /// - Returns: nil when the message was sent or the notifier is not enabled; otherwise
  ///   the error, for the log: `sendto` with errno `.wouldBlock` when systemd's socket is
  ///   full, `ECONNREFUSED` or `ENOENT` when nothing listens at the address, or
  ///   `NOTIFY_SOCKET` when the address is not valid.
  public func notify(_ assignments: [String]) -> IOError? {
    guard let socketAddress else { return nil }
    let address: UnixSocketAddress
    do {
      address = try UnixSocketAddress(socketAddress)
    } catch {
      return IOError(operation: "NOTIFY_SOCKET", path: socketAddress, errno: error)
    }
    let socket: FileDescriptor
    if let opened = self.socket {
      socket = opened
    } else {
      let descriptor = SystemCall.datagramSocket()
      guard descriptor != -1 else {
        return IOError(operation: "socket", errno: .current)
      }
      socket = FileDescriptor(rawValue: descriptor)
      self.socket = socket
    }
    // A send that cannot wait cannot be interrupted either: there is no EINTR to retry.
    let message = Array(assignments.joined(separator: "\n").utf8)
    let error = address.withSocketAddress { address, length in
      let flags = CInt(MSG_DONTWAIT | MSG_NOSIGNAL)
      let sent = SystemCall.sendto(socket.rawValue, message, message.count, flags, address, length)
      return sent == -1 ? Errno.current : nil
    }
    return error.map { IOError(operation: "sendto", path: socketAddress, errno: $0) }
  }

  /// `READY=1`: start-up is complete, or a reload has finished.
  public func ready() -> IOError? {
    notify(["READY=1"])
  }

  /// `RELOADING=1` with `MONOTONIC_USEC`: the configuration is being reloaded; `ready()`
  /// follows when it is done.
  ///
  /// - Parameter monotonicMicroseconds: The time of the reload on `CLOCK_MONOTONIC`.
  public func reloading(monotonicMicroseconds: Int64)
    -> IOError?
  {
    notify(["RELOADING=1", "MONOTONIC_USEC=\(monotonicMicroseconds)"])
  }

  /// `STOPPING=1`: the service is shutting down.
  public func stopping() -> IOError? {
    notify(["STOPPING=1"])
  }

  /// `STATUS=text`: a one-line status that `systemctl status` shows. Line breaks in
  /// `text` become spaces.
  public func status(_ text: String) -> IOError? {
    notify(["STATUS=" + String(text.map { $0.isNewline ? " " : $0 })])
  }

  /// `WATCHDOG=1`: the service is alive.
  public func watchdog() -> IOError? {
    notify(["WATCHDOG=1"])
  }

  /// `WATCHDOG_USEC` in nanoseconds, unless it is not a positive number or
  /// `WATCHDOG_PID` is given and is not this process's ID.
  private static func watchdogNanoseconds(microseconds: String?, processID: String?) -> Int64? {
    guard let microseconds = microseconds.flatMap({ Int64($0) }), microseconds > 0 else {
      return nil
    }
    if let processID, pid_t(processID) != SystemCall.processID() {
      return nil
    }
    let (nanoseconds, overflow) = microseconds.multipliedReportingOverflow(by: 1000)
    return overflow ? nil : nanoseconds
  }
}
