@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import TestSupport
import Testing

@testable import ScoreboardDaemon

/// The pairing code on the board's own digits, in virtual time: shown from `pair` (or a
/// keypad's pair key) for exactly two minutes, or until `pair off`.
@Suite(
  .serialized,
  .enabled(
    if: dlopen("libmicrohttpd.so.12", RTLD_NOW) != nil, "needs libmicrohttpd (make deps)"))
struct PairingInVirtualTimeTests {
  /// The pages in the source tree.
  static let pages: String = {
    let file = #filePath
    var folder = file[..<file.lastIndex(of: "/")!]
    folder = folder[..<folder.lastIndex(of: "/")!]
    folder = folder[..<folder.lastIndex(of: "/")!]
    return folder + "/web"
  }()

  /// Long enough for a frame to cross the S7S module's line.
  static let wireTime = Duration.milliseconds(50)

  static func harness() throws -> DaemonHarness {
    try DaemonHarness(
      keys: "KEY_P = pair",
      extra: """
        [web]
        listen = 127.0.0.1:\(try MosquittoBroker.freePort())
        pages = \(pages)
        """)
  }

  @Test func theCodeShowsOnTheDisplaysForTwoMinutes() throws {
    let harness = try Self.harness()
    let control = try harness.controlClient()
    #expect(try harness.request("set home 12", from: control) == "ok home 12")
    try harness.advance(by: Self.wireTime)
    let board = harness.shows
    #expect(board == "12 0")
    let answer = try #require(try harness.request("pair", from: control))
    #expect(answer.hasSuffix(" for 120 s, every field"), "\(answer)")
    let code = String(answer.dropFirst(3).prefix(6))
    let armed = harness.clock.now()
    try harness.advance(by: Self.wireTime)
    // Four cells, no display with room for six digits: the first four and the last two
    // in turn, 1.5 s each.
    let first = String(code.prefix(4))
    let second = code.suffix(2) + "  "
    #expect(harness.shows == first)
    try harness.advance(to: armed + .milliseconds(1_500) + Self.wireTime)
    #expect(harness.shows == second)
    try harness.advance(to: armed + .milliseconds(3_000) + Self.wireTime)
    #expect(harness.shows == first)
    // The last turn before the code expires: 79 × 1.5 s is 118.5 s, the second piece.
    try harness.advance(to: armed + .milliseconds(119_900))
    #expect(harness.shows == second)
    try harness.advance(by: .milliseconds(100) + Self.wireTime)
    #expect(harness.shows == board)
    #expect(harness.log.lines.contains { $0.contains("web: the pairing code expired") })
  }

  @Test func pairOffAndAKeypadsPairKey() throws {
    let harness = try Self.harness()
    let control = try harness.controlClient()
    try harness.advance(by: Self.wireTime)
    let board = harness.shows
    #expect(try harness.request("pair away", from: control)?.hasSuffix("fields away") == true)
    try harness.advance(by: Self.wireTime)
    #expect(harness.shows != board)
    #expect(try harness.request("pair off", from: control) == "ok pairing off")
    try harness.advance(by: Self.wireTime)
    #expect(harness.shows == board)
    try harness.press("KEY_P")
    try harness.advance(by: Self.wireTime)
    let shown = harness.shows
    #expect(shown.count == 4 && shown.allSatisfy(\.isNumber), "\(shown)")
    #expect(
      harness.log.lines.contains {
        $0.contains("web: pairing armed for every field by keypad numpad")
      })
  }
}
