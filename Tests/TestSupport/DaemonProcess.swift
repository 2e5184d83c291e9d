@preconcurrency import Glibc
import LinuxIO

/// The real `scoreboardd` binary, started by a test with its standard output and
/// standard error on pipes; killed, if it still runs, when released.
public final class DaemonProcess {
  public let pid: pid_t
  private let child: ChildProcess
  /// The folder the process works in, kept until the process has been reaped: a process
  /// that still runs cannot write into the folder while it is being removed.
  private let folder: TemporaryFolder?
  private let stdoutFD: CInt
  private let stderrFD: CInt
  private var stdoutBuffer: [UInt8] = []
  public private(set) var stderrText = ""
  /// Standard error reached its end: the process has exited (or closed it).
  private var stderrEnded = false
  private var exitStatus: CInt?

  /// The folder of the built products (see `ChildProcess.productsFolder`).
  public static var productsFolder: String { ChildProcess.productsFolder }

  public static var binary: String { productsFolder + "/scoreboardd" }

  /// Starts `executable` (by default `scoreboardd`) with `arguments`; standard input is
  /// /dev/null, or with `terminal` the slave of that pseudo-terminal, which is then also
  /// standard output and the controlling terminal of a session of its own, as the shell
  /// of a terminal window starts a program. `folder`, where the process keeps its files,
  /// is released only after the process.
  public init(
    executable: String = DaemonProcess.binary, arguments: [String],
    environment: [String: String] = [:], terminal: String? = nil, folder: TemporaryFolder? = nil
  ) throws {
    self.folder = folder
    let child = try ChildProcess(
      executable: executable, arguments: arguments, environment: environment,
      inherited: ["PATH", "HOME", "LANG"], terminal: terminal)
    self.child = child
    pid = child.pid
    stdoutFD = child.standardOutput.rawValue
    stderrFD = child.standardError.rawValue
  }

  deinit {
    child.end(reaped: exitStatus != nil)
  }

  /// Reads standard output until a whole line satisfies `predicate`; returns it, or nil
  /// after `timeout` seconds or at end of output. Lines before it are consumed.
  public func waitForLine(timeout: Double = 10, where predicate: (String) -> Bool) -> String? {
    let deadline = Self.now() + timeout
    while true {
      while let newline = stdoutBuffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: stdoutBuffer[..<newline], as: UTF8.self)
        stdoutBuffer.removeSubrange(...newline)
        if predicate(line) {
          return line
        }
      }
      let remaining = deadline - Self.now()
      guard remaining > 0, readAvailable(timeout: remaining) else { return nil }
    }
  }

  /// Waits for the process to exit and returns its exit code (128 + signal if killed);
  /// nil if it still runs after `timeout` seconds.
  public func waitForExit(timeout: Double = 10) -> CInt? {
    if let exitStatus { return exitStatus }
    let deadline = Self.now() + timeout
    // Standard error ends when the process exits: wait on the pipe, then reap.
    while !stderrEnded {
      let remaining = deadline - Self.now()
      guard remaining > 0 else { return nil }
      waitForStderrBytes(timeout: remaining)
    }
    var status: CInt = 0
    guard
      waitUntil(timeout: max(deadline - Self.now(), 0), { waitpid(pid, &status, WNOHANG) == pid })
    else { return nil }
    let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    exitStatus = code
    return code
  }

  /// Waits until what the process wrote to standard error satisfies `predicate`; false
  /// after `timeout` seconds, or when standard error ended without it.
  public func waitForStderr(timeout: Double = 10, where predicate: (String) -> Bool) -> Bool {
    let deadline = Self.now() + timeout
    while !predicate(stderrText) {
      let remaining = deadline - Self.now()
      guard remaining > 0, !stderrEnded else { return false }
      waitForStderrBytes(timeout: remaining)
    }
    return true
  }

  /// Waits up to `timeout` seconds for standard error to be readable, and reads once.
  private func waitForStderrBytes(timeout: Double) {
    var entry = pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)
    if poll(&entry, 1, CInt(min(timeout, 1) * 1000) + 1) > 0 {
      drainStderr(once: true)
    }
  }

  public func send(signal: CInt) {
    kill(pid, signal)
  }

  private func readAvailable(timeout: Double) -> Bool {
    // poll ignores a negative descriptor: standard error, once it ended.
    var fds = [
      pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stderrEnded ? -1 : stderrFD, events: Int16(POLLIN), revents: 0),
    ]
    let ready = poll(&fds, 2, CInt(min(timeout, 1) * 1000) + 1)
    guard ready >= 0 else { return false }
    if fds[1].revents != 0 {
      drainStderr(once: true)
    }
    if fds[0].revents != 0 {
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = read(stdoutFD, &chunk, chunk.count)
      if count <= 0 { return false }
      stdoutBuffer += chunk[0..<count]
    }
    return true
  }

  private func drainStderr(once: Bool = false) {
    var chunk = [UInt8](repeating: 0, count: 4096)
    repeat {
      var fd = pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)
      guard !stderrEnded, poll(&fd, 1, 0) > 0 else { return }
      let count = read(stderrFD, &chunk, chunk.count)
      guard count > 0 else {
        stderrEnded = count == 0 || errno != EINTR
        return
      }
      stderrText += String(decoding: chunk[0..<count], as: UTF8.self)
    } while !once
  }

  private static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

public struct SpawnError: Error, CustomStringConvertible {
  public var message: String

  public init(message: String) {
    self.message = message
  }

  public var description: String { message }
}
