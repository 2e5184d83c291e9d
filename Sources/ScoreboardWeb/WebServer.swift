import CScoreboardWeb
@preconcurrency import Glibc

/// An HTTP server in the caller's loop, through libmicrohttpd in its external mode: no
/// thread of its own. The caller watches `descriptor` for reading and calls `serve()`
/// when it is readable or at `timeout`; each complete request goes to `handler`, which
/// answers at once, or opens a stream of Server-Sent Events that `send(_:to:)` feeds.
public final class WebServer {
  /// One request, and how to answer it: exactly once, during the handler's call.
  public struct Exchange {
    fileprivate let exchange: OpaquePointer
    /// `GET`, `POST`, ...
    public let method: String
    /// The path, percent-encoding undone.
    public let path: String
    public let host: String?
    public let origin: String?
    public let cookie: String?
    public let accept: String?
    public let body: [UInt8]
    /// The client's address as text.
    public let clientAddress: String

    /// The query argument `name`, or nil.
    public func argument(_ name: String) -> String? {
      sbw_exchange_argument(exchange, name).map { String(cString: $0) }
    }

    /// Answers with `status`, `contentType`, `body` and more `headers`.
    public func respond(
      _ status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []
    ) {
      let headerText = WebServer.headerText(headers)
      _ = body.withUnsafeBufferPointer { bytes in
        sbw_exchange_respond(
          exchange, Int32(status), contentType, bytes.baseAddress, bytes.count, headerText)
      }
    }

    /// Answers later, through `WebServer.answer(_:status:contentType:body:headers:)` with
    /// the number this returns; the client waits meanwhile. Nil when it cannot be
    /// deferred (the request then has an answer all the same).
    public func deferAnswer() -> UInt64? {
      var id: UInt64 = 0
      return sbw_exchange_defer(exchange, &id) == 0 ? id : nil
    }

    /// Answers with a stream of Server-Sent Events starting with `first`; nil when the
    /// stream could not be opened (the request then has its answer all the same).
    public func openStream(first: [UInt8]) -> UInt64? {
      var stream: UInt64 = 0
      let result = first.withUnsafeBufferPointer { bytes in
        sbw_exchange_open_stream(exchange, bytes.baseAddress, bytes.count, &stream)
      }
      return result == 0 ? stream : nil
    }
  }

  /// Why the server could not start, in words.
  public struct StartError: Error, CustomStringConvertible {
    public var description: String
  }

  /// Why libmicrohttpd cannot be loaded on this machine, naming the package to install;
  /// nil when it can. Loads it once.
  public static var libraryProblem: String? {
    var problem = [CChar](repeating: 0, count: 320)
    guard sbw_library_load(&problem, problem.count) != 0 else { return nil }
    return String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private var server: OpaquePointer?
  private let handler: (Exchange) -> Void
  private let streamClosed: (UInt64) -> Void

  /// Starts listening on `address` (IPv4 or IPv6, as text) and `port` (0: any free one).
  public init(
    address: String, port: Int, connectionLimit: Int, connectionsPerAddress: Int,
    idleTimeoutSeconds: Int, handler: @escaping (Exchange) -> Void,
    streamClosed: @escaping (UInt64) -> Void
  ) throws(StartError) {
    self.handler = handler
    self.streamClosed = streamClosed
    var error = [CChar](repeating: 0, count: 300)
    let context = Unmanaged.passUnretained(self).toOpaque()
    server = sbw_server_start(
      address, Int32(port), UInt32(connectionLimit), UInt32(connectionsPerAddress),
      UInt32(idleTimeoutSeconds), handleRequest, handleStreamClosed, context, &error,
      error.count)
    guard server != nil else {
      let bytes = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      throw StartError(description: String(decoding: bytes, as: UTF8.self))
    }
  }

  deinit {
    stop()
  }

  /// The descriptor to watch for reading (libmicrohttpd's epoll descriptor).
  public var descriptor: Int32 {
    server.map { sbw_server_descriptor($0) } ?? -1
  }

  /// A second descriptor to watch for reading: the event streams' sockets, whose
  /// clients' leaving libmicrohttpd does not see while a stream waits for events. When
  /// it is readable, call `endStreamsLeft()`, then `serve()`.
  public var streamsDescriptor: Int32 {
    server.map { sbw_server_watch_descriptor($0) } ?? -1
  }

  /// Ends the streams whose clients left; how many.
  @discardableResult
  public func endStreamsLeft() -> Int {
    guard let server else { return 0 }
    return Int(sbw_streams_check(server))
  }

  /// Milliseconds until `serve()` is due without an event; nil: not before an event.
  public var timeoutMilliseconds: Int64? {
    guard let server else { return nil }
    let timeout = sbw_server_timeout(server)
    return timeout < 0 ? nil : timeout
  }

  /// The port the server listens on.
  public var port: Int {
    server.map { Int(sbw_server_port($0)) } ?? 0
  }

  /// Accepts, reads, answers and writes what is ready.
  public func serve() {
    guard let server else { return }
    _ = sbw_server_run(server)
  }

  /// Queues `bytes` on a stream; false when the stream is gone or its client was dropped
  /// for letting too much wait.
  @discardableResult
  public func send(_ bytes: [UInt8], to stream: UInt64) -> Bool {
    guard let server else { return false }
    return bytes.withUnsafeBufferPointer {
      sbw_stream_send(server, stream, $0.baseAddress, $0.count)
    }
      == 0
  }

  /// Gives the answer of a request whose answer was deferred (`Exchange.deferAnswer`);
  /// nothing when the server stopped meanwhile.
  public func answer(
    _ deferred: UInt64, status: Int, contentType: String, body: [UInt8],
    headers: [(String, String)] = []
  ) {
    guard let server else { return }
    let headerText = Self.headerText(headers)
    _ = body.withUnsafeBufferPointer { bytes in
      sbw_deferred_respond(
        server, deferred, Int32(status), contentType, bytes.baseAddress, bytes.count, headerText)
    }
  }

  /// Header lines as the shim takes them (`Name: value\n` each); nil for none.
  fileprivate static func headerText(_ headers: [(String, String)]) -> String? {
    headers.isEmpty ? nil : headers.map { "\($0.0): \($0.1)\n" }.joined()
  }

  /// Closes every connection and the listening socket.
  public func stop() {
    guard let server else { return }
    self.server = nil
    sbw_server_stop(server)
  }

  fileprivate func handle(_ exchange: OpaquePointer, _ request: sbw_request) {
    func text(_ pointer: UnsafePointer<CChar>?) -> String? {
      pointer.map {
        String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self)
      }
    }
    let body =
      request.body.map { Array(UnsafeBufferPointer(start: $0, count: request.body_length)) } ?? []
    handler(
      Exchange(
        exchange: exchange, method: text(request.method) ?? "", path: text(request.path) ?? "",
        host: text(request.host), origin: text(request.origin), cookie: text(request.cookie),
        accept: text(request.accept),
        body: body, clientAddress: text(request.client_address) ?? ""))
  }

  fileprivate func closed(_ stream: UInt64) {
    streamClosed(stream)
  }
}

private func handleRequest(
  context: UnsafeMutableRawPointer?, exchange: OpaquePointer?,
  request: UnsafePointer<sbw_request>?
) {
  guard let context, let exchange, let request else { return }
  Unmanaged<WebServer>.fromOpaque(context).takeUnretainedValue().handle(exchange, request.pointee)
}

private func handleStreamClosed(context: UnsafeMutableRawPointer?, stream: UInt64) {
  guard let context else { return }
  Unmanaged<WebServer>.fromOpaque(context).takeUnretainedValue().closed(stream)
}
