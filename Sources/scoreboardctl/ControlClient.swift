import LinuxIO

/// A connection to scoreboardd's control socket that sends request lines and reads
/// answer and event lines.
final class ControlClient {
  /// The socket's path, for messages.
  let path: String
  private let connection: UnixConnection
  /// Bytes received that do not yet make a whole line.
  private var input: [UInt8] = []
  /// The longest answer or event line taken: far more than any status line, so that a
  /// program that is not scoreboardd cannot make the client hold a line without end.
  static let maximumLineLength = 1 << 20

  /// Connects to the socket at `path`.
  ///
  /// - Throws: `ClientError` with exit status 69, saying why and what may be wrong.
  init(path: String, timeout: Duration) throws(ClientError) {
    self.path = path
    do {
      connection = try UnixConnection.connect(to: path, timeout: timeout)
    } catch let error as IOError {
      let hint =
        switch error.errno {
        case .noSuchFileOrDirectory, .connectionRefused: "; is scoreboardd running?"
        case .permissionDenied: "; is your user in the socket's group?"
        case .timedOut: "; scoreboardd is not accepting connections"
        default: ""
        }
      throw ClientError(
        "cannot connect to \(path): \(error.errno)\(hint)", exitStatus: .unavailable)
    } catch {
      throw ClientError("cannot connect to \(path): \(error)", exitStatus: .unavailable)
    }
  }

  /// Sends `line` and a newline.
  ///
  /// - Throws: `ClientError` with exit status 74 when the connection is lost or the
  ///   daemon takes nothing within `timeout`.
  func send(_ line: String, timeout: Duration) throws(ClientError) {
    let deadline = Self.deadline(after: timeout)
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
      do {
        bytes = bytes.dropFirst(try bytes.withUnsafeBytes { try connection.write($0) })
      } catch let error as IOError where error.errno == .wouldBlock {
        guard try wait(for: .writable, until: deadline) else {
          throw ClientError(
            "\(path) does not take the request within \(timeout)", exitStatus: .connectionLost)
        }
      } catch {
        throw lost(error)
      }
    }
  }

  /// Reads the next line, without its line end.
  ///
  /// - Parameter timeout: How long to wait for it; nil waits as long as it takes.
  /// - Throws: `ClientError` with exit status 74 when the connection is lost or no line
  ///   comes in time.
  func readLine(timeout: Duration?) throws(ClientError) -> String {
    let deadline = timeout.map(Self.deadline(after:))
    let waitText = timeout.map { " within \($0)" } ?? ""
    // Each byte is looked at once for the line end, however the line arrives.
    var searched = 0
    while true {
      if let newline = input[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        var line = input[..<newline]
        input.removeSubrange(...newline)
        if line.last == UInt8(ascii: "\r") {
          line = line.dropLast()
        }
        return String(decoding: line, as: UTF8.self)
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count: Int
      do {
        count = try chunk.withUnsafeMutableBytes { try connection.read(into: $0) }
      } catch let error as IOError where error.errno == .wouldBlock {
        guard try wait(for: .readable, until: deadline) else {
          throw ClientError("no answer from \(path)\(waitText)", exitStatus: .connectionLost)
        }
        continue
      } catch {
        throw lost(error)
      }
      guard count > 0 else {
        throw ClientError("connection to \(path) lost", exitStatus: .connectionLost)
      }
      searched = input.count
      input += chunk[..<count]
      guard input.count <= Self.maximumLineLength else {
        throw ClientError(
          "\(path) sent a line longer than \(Self.maximumLineLength) bytes; is it scoreboardd?",
          exitStatus: .connectionLost)
      }
    }
  }

  /// Waits until the socket is ready for `events` or `deadline` (monotonic nanoseconds)
  /// passes; returns whether it is ready.
  private func wait(for events: PollLoop.Events, until deadline: Int64?) throws(ClientError)
    -> Bool
  {
    let loop = PollLoop()
    var ready = false
    loop.watch(connection.fileDescriptor, for: events) { _ in ready = true }
    let timeout = deadline.map { Duration.nanoseconds(max($0 - MonotonicClock.now(), 0)) }
    do {
      try loop.runOnce(timeout: timeout)
    } catch {
      throw lost(error)
    }
    return ready
  }

  private func lost(_ error: any Error) -> ClientError {
    let reason = (error as? IOError).map { "\($0.errno)" } ?? "\(error)"
    return ClientError("connection to \(path) lost: \(reason)", exitStatus: .connectionLost)
  }

  private static func deadline(after timeout: Duration) -> Int64 {
    let (seconds, attoseconds) = timeout.components
    return MonotonicClock.now() + seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}
