@preconcurrency import Glibc
import LinuxIO
import ScoreboardDaemon
import TestSupport
import Testing

/// A control server on a socket in a fresh temporary folder, with its own poll loop and
/// a `ScoreboardHandler`; the test thread runs the loop.
final class ServerFixture {
  let folder: TemporaryFolder
  let loop = PollLoop()
  let handler: ScoreboardHandler
  let server: ControlServer
  private let logOutput: FileDescriptor

  var path: String { server.path }

  init(maximumClients: Int = 8) throws {
    folder = try TemporaryFolder()
    logOutput = try FileDescriptor.open("/dev/null", .writeOnly)
    handler = try ScoreboardHandler()
    server = try ControlServer(
      path: folder.path(of: "control"), maximumClients: maximumClients, loop: loop,
      handler: handler,
      logger: Self.logger(to: logOutput))
    handler.server = server
  }

  /// Logs everything, to nowhere: the formatting of every message still runs.
  static func logger(to output: FileDescriptor) -> Logger {
    Logger(output: output, programName: "scoreboardd", minimumLevel: .debug, style: .journal)
  }

  deinit {
    server.close()
    try? logOutput.close()
  }

  /// Runs the loop until `condition` holds; false if it still does not after 5 s.
  @discardableResult
  func run(until condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.now() + 5_000_000_000
    while !condition() {
      guard MonotonicClock.now() < deadline else { return false }
      _ = try? loop.runOnce(timeout: .milliseconds(10))
    }
    return true
  }

  /// A client connected to the server and admitted by it.
  func connect() throws -> TestClient {
    let before = server.clientCount
    let client = try TestClient(path: path)
    run { server.clientCount > before || client.ended }
    return client
  }

  /// Sends `line` and runs the loop until its answer comes; nil if none comes.
  func request(_ line: String, from client: TestClient) -> String? {
    client.send(line + "\n")
    return nextLine(from: client)
  }

  /// Runs the loop until the client has a whole line, and returns it.
  func nextLine(from client: TestClient) -> String? {
    var line: String?
    run {
      line = client.nextLine()
      return line != nil || client.ended
    }
    return line
  }

  /// Runs the loop until the server has disconnected the client, reading what it was
  /// sent; false if it is still connected after 5 s.
  func runUntilDisconnected(_ client: TestClient) -> Bool {
    run {
      client.receive()
      return client.ended
    }
  }
}

/// The client side of one connection, non-blocking, driven by the test thread.
final class TestClient {
  let connection: UnixConnection
  /// What the server sent that is not yet taken as lines.
  private(set) var received: [UInt8] = []
  /// The server closed the connection (end of input or reset).
  private(set) var ended = false

  init(path: String) throws {
    connection = try UnixConnection.connect(to: path, timeout: .seconds(1))
  }

  /// Writes all of `text` (small enough for the socket's buffer).
  func send(_ text: String) {
    send(bytes: Array(text.utf8))
  }

  func send(bytes: [UInt8]) {
    let written = try? bytes.withUnsafeBytes { try connection.write($0) }
    #expect(written == bytes.count, "the socket took the whole request")
  }

  /// Writes what the socket takes of `bytes` without waiting; returns how many, or nil
  /// when the server has gone.
  func sendWithoutWaiting(_ bytes: [UInt8]) -> Int? {
    do {
      return try bytes.withUnsafeBytes { try connection.write($0) }
    } catch let error as IOError where error.errno == .wouldBlock {
      return 0
    } catch {
      return nil
    }
  }

  /// Reads everything available now.
  func receive() {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !ended {
      do {
        let count = try buffer.withUnsafeMutableBytes { try connection.read(into: $0) }
        if count == 0 {
          ended = true
        }
        received += buffer[..<count]
      } catch let error as IOError where error.errno == .wouldBlock {
        return
      } catch {
        ended = true
      }
    }
  }

  /// The next whole line received, reading what is available first.
  func nextLine() -> String? {
    receive()
    guard let newline = received.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let line = String(decoding: received[..<newline], as: UTF8.self)
    received.removeSubrange(...newline)
    return line
  }

  /// Every whole line received so far.
  func allLines() -> [String] {
    var lines: [String] = []
    while let line = nextLine() {
      lines.append(line)
    }
    return lines
  }

  /// Stops sending; the server answers what it has and closes.
  func finishSending() {
    shutdown(connection.fileDescriptor.rawValue, CInt(SHUT_WR))
  }
}
