@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// The real `scoreboardctl` binary, started by a test with its standard output and
/// standard error on pipes. The test thread runs the server's loop while it waits.
final class ControlProcess {
  let pid: pid_t
  private let child: ChildProcess
  private let standardOutputPipe: FileDescriptor
  private let standardErrorPipe: FileDescriptor
  private var outputBytes: [UInt8] = []
  private var errorBytes: [UInt8] = []
  /// The pipes that reached their end, which comes when the process exits.
  private var endedPipes: Set<CInt> = []
  private(set) var exitStatus: CInt?

  var standardOutput: String { String(decoding: outputBytes, as: UTF8.self) }
  var standardError: String { String(decoding: errorBytes, as: UTF8.self) }

  /// Starts `scoreboardctl` with `arguments` and only `PATH` and `environment` in its
  /// environment; standard input is /dev/null.
  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    child = try ChildProcess(
      executable: ChildProcess.productsFolder + "/scoreboardctl", arguments: arguments,
      environment: environment)
    pid = child.pid
    standardOutputPipe = child.standardOutput
    standardErrorPipe = child.standardError
    try standardOutputPipe.setNonBlocking()
    try standardErrorPipe.setNonBlocking()
  }

  deinit {
    child.end(reaped: exitStatus != nil)
  }

  /// Runs `loop` (if any) and collects the output until `condition` holds or the process
  /// has exited; false after 10 s. The process's output, and its end when the process
  /// exits, wake the loop: `condition` is looked at again after each event of the loop.
  @discardableResult
  func run(serving loop: PollLoop?, until condition: () -> Bool = { false }) -> Bool {
    let loop = loop ?? PollLoop()
    let pipes = [standardOutputPipe, standardErrorPipe]
    for pipe in pipes {
      loop.watch(pipe, for: .readable) { [unowned self] _ in collectOutput() }
    }
    defer {
      for pipe in pipes {
        loop.removeWatch(pipe)
      }
    }
    let deadline = MonotonicClock.now() + 10_000_000_000
    while true {
      collectOutput()
      if condition() {
        return true
      }
      if exitStatus != nil {
        return false
      }
      let remaining = deadline - MonotonicClock.now()
      guard remaining > 0 else { return false }
      if endedPipes.count == pipes.count {
        // Both pipes ended: the process is exiting; it only remains to reap it.
        var status: CInt = 0
        let seconds = Double(remaining) / 1e9
        guard waitUntil(timeout: seconds, { waitpid(pid, &status, WNOHANG) == pid }) else {
          return false
        }
        exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        continue
      }
      for pipe in pipes where endedPipes.contains(pipe.rawValue) {
        loop.removeWatch(pipe)
      }
      _ = try? loop.runOnce(timeout: .nanoseconds(remaining))
    }
  }

  /// Runs `loop` until the process exits; returns its exit status (128 + the signal if
  /// one killed it), or nil after 10 s.
  func finish(serving loop: PollLoop?) -> CInt? {
    run(serving: loop)
    return exitStatus
  }

  private func collectOutput() {
    for (pipe, isOutput) in [(standardOutputPipe, true), (standardErrorPipe, false)]
    where !endedPipes.contains(pipe.rawValue) {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while let count = try? buffer.withUnsafeMutableBytes({ try pipe.read(into: $0) }) {
        guard count > 0 else {
          endedPipes.insert(pipe.rawValue)
          break
        }
        if isOutput {
          outputBytes += buffer[..<count]
        } else {
          errorBytes += buffer[..<count]
        }
      }
    }
  }
}
