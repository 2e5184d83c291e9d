@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import TestSupport
import Testing

@testable import ScoreboardDaemon

/// What the event streams are told of a change, in virtual time: nothing until
/// `WebLink.pageDelay` after it (the displays' bytes leave first, while the loop sleeps),
/// then the changes of that time as one: the frames and the state once, as they are
/// then, and every event in order.
@Suite(
  .serialized,
  .enabled(
    if: dlopen("libmicrohttpd.so.12", RTLD_NOW) != nil, "needs libmicrohttpd (make deps)"))
struct WebNewsInVirtualTimeTests {
  /// A board with `[web]` and a page connected to its event stream, which has had the
  /// layout and the state.
  static func boardWithAPage() throws -> (DaemonHarness, HTTPClient) {
    let port = try MosquittoBroker.freePort()
    let harness = try DaemonHarness(
      extra: """
        [web]
        listen = 127.0.0.1:\(port)
        pages = \(PairingInVirtualTimeTests.pages)
        """)
    let page = try HTTPClient(port: port)
    page.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    var connected = false
    for _ in 0..<500 where !connected {
      try harness.settle()
      connected = page.readStream(timeout: 0.01) { $0.contains("event: state") }
    }
    try #require(connected, "the page got no state: \(page.streamText)")
    // The board's first frames are on the line.
    try harness.advance(by: PairingInVirtualTimeTests.wireTime)
    return (harness, page)
  }

  /// How many events named `name` are in `text`.
  static func count(_ name: String, in text: Substring) -> Int {
    text.ranges(of: "event: \(name)\n").count
  }

  @Test func theDisplaysComeFirstAndTheChangesOfAMillisecondReachThePagesAsOne() throws {
    let (harness, page) = try Self.boardWithAPage()
    let before = page.streamText.count
    let start = harness.clock.now()

    try harness.press("KEY_KPPLUS")
    #expect(harness.shows == " 1 0")
    try harness.advance(to: start + .microseconds(500))
    try harness.press("KEY_KPPLUS")
    #expect(harness.shows == " 2 0")
    try harness.advance(to: start + WebLink.pageDelay - .microseconds(1))
    // The server has run in every round meanwhile: a byte sent would be here.
    #expect(!page.readStream(timeout: 0.05) { $0.count > before })

    try harness.advance(to: start + WebLink.pageDelay)
    #expect(page.readStream(timeout: 5) { $0.dropFirst(before).contains("data: value home 2\n") })
    let news = page.streamText.dropFirst(before)[...]
    #expect(Self.count("frames", in: news) == 1, "\(news)")
    #expect(Self.count("state", in: news) == 1, "\(news)")
    #expect(news.contains(#""home":{"shown":"2","value":2}"#), "\(news)")
    let first = try #require(news.firstRange(of: "data: value home 1\n"))
    let second = try #require(news.firstRange(of: "data: value home 2\n"))
    #expect(first.upperBound <= second.lowerBound)
    #expect(news.firstRange(of: "event: state")!.lowerBound < first.lowerBound)
  }

  @Test func aBoardWithoutPagesHoldsNothing() throws {
    var (harness, page): (DaemonHarness, HTTPClient?) = try Self.boardWithAPage()
    page = nil
    // The stream ends once its client is seen to have left.
    #expect(try harness.runUntil { harness.daemon.web?.hasStreams == false })
    try harness.press("KEY_KPPLUS")
    #expect(harness.shows == " 1 0")
    let now = harness.clock.now()
    #expect(harness.daemon.nextDeadline.map { $0 > now + WebLink.pageDelay } != false)
    _ = page
  }
}
