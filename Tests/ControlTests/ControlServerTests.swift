@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import ScoreboardDaemon
import Testing

@Suite struct ControlServerTests {
  @Test func everyCommandReachesTheHandler() throws {
    let fixture = try ServerFixture()
    let client = try fixture.connect()
    let exchanges = [
      (
        "status",
        "ok home=0 away=0 period=1 brightness=8 blank=off editing=- "
          + "displays=main:online keypads=numpad:online state-file=saved"
      ),
      ("get home", "ok 0"), ("set home 12", "ok home 12"), ("add away -2", "ok away 0"),
      ("add away +3", "ok away 3"), ("set period OT", "ok period OT"),
      ("press KEY_KPENTER", "ok commit"),
      ("press shift+KEY_TAB numpad", "error shift+KEY_TAB is not mapped on keypad numpad"),
      ("undo", "ok"), ("reset", "ok"), ("brightness up", "ok brightness 9"),
      ("brightness 3", "ok brightness 3"), ("blank on", "ok blank on"),
      ("get score", "error no field named 'score' (fields: home, away, period)"),
    ]
    for (line, answer) in exchanges {
      #expect(fixture.request(line, from: client) == answer, "\(line)")
    }
    #expect(
      fixture.handler.requests.map(\.request)
        == exchanges.map { try! ControlRequest(parsing: $0.0) })
    #expect(Set(fixture.handler.requests.map(\.client)) == ["control client 1"])
  }

  @Test func helpAndWatchAreAnsweredByTheServer() throws {
    let fixture = try ServerFixture()
    let client = try fixture.connect()
    #expect(fixture.request("help", from: client) == "ok " + ControlRequest.helpText)
    #expect(fixture.request("watch", from: client) == "ok watching")
    #expect(fixture.handler.requests.isEmpty)
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() throws {
    let fixture = try ServerFixture()
    let client = try fixture.connect()
    client.send("set home 1\r\nget home\nbogus\n\nget away\r\n")
    var lines: [String] = []
    fixture.run {
      lines += client.allLines()
      return lines.count == 5
    }
    #expect(
      lines == [
        "ok home 1", "ok 1", "error unknown command 'bogus'; try 'help'",
        "error expected a command, found nothing; try 'help'", "ok 0",
      ])
  }

  @Test func linesAreLeftForALaterRoundWhileSomethingMoreUrgentWaits() throws {
    let fixture = try ServerFixture()
    fixture.handler.urgentWorkWaits = true
    let client = try fixture.connect()
    client.send("set home 1\nget home\nget away\n")
    #expect(fixture.run { fixture.handler.requests.count == 1 })
    #expect(fixture.server.hasDeferredLines)
    // The loop reads nothing more of the client and answers no more of its lines.
    for _ in 0..<3 {
      _ = try fixture.loop.runOnce(timeout: .milliseconds(1))
    }
    #expect(fixture.handler.requests.count == 1)

    fixture.server.answerDeferred()
    #expect(fixture.handler.requests.count == 2, "one line a call while it is urgent")
    fixture.handler.urgentWorkWaits = false
    fixture.server.answerDeferred()
    #expect(!fixture.server.hasDeferredLines)
    var lines: [String] = []
    #expect(
      fixture.run {
        lines += client.allLines()
        return lines.count == 3
      })
    #expect(lines == ["ok home 1", "ok 1", "ok 0"])
  }

  @Test func deferredLinesAreNotTakenForOneTooLong() throws {
    let fixture = try ServerFixture()
    fixture.handler.urgentWorkWaits = true
    let client = try fixture.connect()
    // 300 lines, 2,700 bytes: more than the longest line, but every one whole.
    client.send(String(repeating: "get home\n", count: 300))
    #expect(fixture.run { fixture.server.hasDeferredLines })
    fixture.handler.urgentWorkWaits = false
    fixture.server.answerDeferred()
    var lines: [String] = []
    #expect(
      fixture.run {
        lines += client.allLines()
        return lines.count >= 300
      })
    #expect(lines == Array(repeating: "ok 0", count: 300))
    #expect(fixture.server.clientCount == 1)
  }

  @Test func anAnswerThatComesLaterHoldsTheClientsNextRequests() throws {
    let fixture = try ServerFixture()
    fixture.handler.holdsAnswers = true
    let client = try fixture.connect()
    let other = try fixture.connect()
    client.send("set home 1\nget home\n")
    #expect(fixture.run { fixture.handler.heldAnswerCount == 1 })
    // Another client is served meanwhile; the first client's next request waits unread.
    other.send("help\n")
    #expect(fixture.nextLine(from: other) == "ok " + ControlRequest.helpText)
    #expect(fixture.handler.requests.map(\.request) == [.set(field: "home", value: "1")])
    #expect(client.allLines().isEmpty)

    fixture.handler.releaseAnswers()
    #expect(fixture.nextLine(from: client) == "ok home 1")
    #expect(fixture.run { fixture.handler.heldAnswerCount == 1 })
    #expect(fixture.handler.requests.count == 2)
    fixture.handler.releaseAnswers()
    #expect(fixture.nextLine(from: client) == "ok 1")
  }

  @Test func aClientThatLeavesBeforeItsAnswerIsClosedAndTheAnswerDropped() throws {
    let fixture = try ServerFixture()
    fixture.handler.holdsAnswers = true
    let client = try fixture.connect()
    client.send("set home 1\n")
    client.finishSending()
    #expect(fixture.run { fixture.handler.heldAnswerCount == 1 })
    #expect(fixture.server.clientCount == 1, "open until its answer is out")
    fixture.handler.releaseAnswers()
    #expect(fixture.runUntilDisconnected(client))
    #expect(client.allLines() == ["ok home 1"])
    #expect(fixture.server.clientCount == 0)
  }

  @Test func aLastLineWithoutNewlineIsAnsweredBeforeClosing() throws {
    let fixture = try ServerFixture()
    let client = try fixture.connect()
    client.send("get home\nset away 5")
    client.finishSending()
    #expect(fixture.runUntilDisconnected(client))
    #expect(client.allLines() == ["ok 0", "ok away 5"])
    #expect(fixture.server.clientCount == 0)
  }

  @Test func aWatcherThatStopsSendingGetsEveryAnswerAndEvent() throws {
    let fixture = try ServerFixture()
    let client = try fixture.connect()
    // The last line, answered when the end of the input is seen, causes an event.
    client.send("watch\nget home\nset home 7")
    client.finishSending()
    #expect(fixture.runUntilDisconnected(client))
    #expect(client.allLines() == ["ok watching", "ok 0", "event value home 7", "ok home 7"])
  }

  @Test func garbageIsAnsweredWithErrorsAndTheClientStays() throws {
    let fixture = try ServerFixture()
    let garbage = try fixture.connect()
    let neighbour = try fixture.connect()
    let exchanges = [
      ("HEAD / HTTP/1.1", "error unknown command 'HEAD'; try 'help'"),
      ("set home 1\u{1B}[2J", "error the request contains a control character"),
      ("\u{0}\u{0}", "error the request contains a control character"),
      (
        "press KEY_ANY",
        "error unknown key 'KEY_ANY': expected a kernel key name such as "
          + "KEY_KPENTER or shift+KEY_TAB"
      ),
      ("brightness 99", "error 'brightness' takes a level 0-15, up, down, +N or -N"),
    ]
    for (line, answer) in exchanges {
      #expect(fixture.request(line, from: garbage) == answer)
      #expect(fixture.request("get home", from: neighbour) == "ok 0")
    }
    #expect(fixture.server.clientCount == 2)
  }

  @Test func aLineOfTheGreatestLengthIsAccepted() throws {
    let fixture = try ServerFixture()
    let client = try fixture.connect()
    // Words may be apart by any run of spaces: the longest line is a request like another.
    let spaces = String(repeating: " ", count: ControlServer.maximumLineLength - 10)
    let longest = "set" + spaces + "home 42"
    #expect(longest.utf8.count == ControlServer.maximumLineLength)
    #expect(fixture.request(longest + "\r", from: client) == "ok home 42")
    #expect(fixture.handler.requests.map(\.request) == [.set(field: "home", value: "42")])
    #expect(fixture.request("get home", from: client) == "ok 42")
  }

  @Test(arguments: [
    String(repeating: "x", count: ControlServer.maximumLineLength + 1) + "\n",
    "set home " + String(repeating: "1", count: 5000),
  ])
  func anOversizedLineIsRefusedAndDisconnected(request: String) throws {
    let fixture = try ServerFixture()
    let offender = try fixture.connect()
    let neighbour = try fixture.connect()
    offender.send("get home\n" + request)
    #expect(fixture.runUntilDisconnected(offender))
    #expect(offender.allLines() == ["ok 0", "error line too long"])
    #expect(fixture.request("get home", from: neighbour) == "ok 0")
    #expect(fixture.server.clientCount == 1)
    #expect(fixture.handler.requests.count == 2, "the long line reached nothing")
  }

  @Test func invalidUTF8IsRefusedAndDisconnected() throws {
    let fixture = try ServerFixture()
    let offender = try fixture.connect()
    let neighbour = try fixture.connect()
    offender.send(bytes: Array("get home\nset home ".utf8) + [0xC3, 0x28, 0xFF] + [0x0A])
    #expect(fixture.runUntilDisconnected(offender))
    #expect(offender.allLines() == ["ok 0", "error invalid UTF-8"])
    #expect(fixture.request("status", from: neighbour)?.hasPrefix("ok home=0 ") == true)
    #expect(fixture.server.clientCount == 1)
  }

  @Test func aFloodingClientThatDoesNotReadIsDisconnected() throws {
    let fixture = try ServerFixture()
    let flooder = try fixture.connect()
    let neighbour = try fixture.connect()
    let flood = Array(String(repeating: "status\n", count: 1000).utf8)
    var pending = flood[...]
    var rounds = 0
    while rounds < 10_000 {
      rounds += 1
      if pending.isEmpty {
        pending = flood[...]
      }
      guard let written = flooder.sendWithoutWaiting(Array(pending)) else { break }
      pending = pending.dropFirst(written)
      _ = try fixture.loop.runOnce(timeout: .zero)
      if rounds % 2 == 0 {
        #expect(fixture.request("get home", from: neighbour) == "ok 0")
      }
    }
    #expect(rounds < 10_000, "the flooder was disconnected")
    #expect(fixture.server.clientCount == 1)
    #expect(fixture.request("add home +1", from: neighbour) == "ok home 1")
  }

  @Test func watchersReceiveBroadcastsAndOthersDoNot() throws {
    let fixture = try ServerFixture()
    let watcher = try fixture.connect()
    let other = try fixture.connect()
    #expect(fixture.request("watch", from: watcher) == "ok watching")
    let events = [
      ControlEvent.value(field: "home", text: "12"), .brightness(9), .blank(true),
      .editing(field: "home"), .editingEnded(field: "home", committed: true),
      .display(name: "main", online: false), .keypad(name: "numpad", online: true),
    ]
    for event in events {
      fixture.server.broadcast(event.line)
    }
    var lines: [String] = []
    fixture.run {
      lines += watcher.allLines()
      return lines.count == events.count
    }
    #expect(lines == events.map(\.line))
    #expect(fixture.request("get home", from: watcher) == "ok 0", "a watcher may still ask")
    #expect(fixture.request("get home", from: other) == "ok 0", "no event came first")
  }

  @Test func aWatcherThatDoesNotReadIsDisconnected() throws {
    let fixture = try ServerFixture()
    let sleeper = try fixture.connect()
    let reader = try fixture.connect()
    let neighbour = try fixture.connect()
    #expect(fixture.request("watch", from: sleeper) == "ok watching")
    #expect(fixture.request("watch", from: reader) == "ok watching")
    var lines: [String] = []
    let count = 40_000
    for index in 0..<count {
      fixture.server.broadcast("event value home \(index)")
      if index % 100 == 0 {
        _ = try fixture.loop.runOnce(timeout: .zero)
        lines += reader.allLines()
      }
    }
    #expect(fixture.server.clientCount == 2, "the sleeper is gone")
    fixture.run {
      lines += reader.allLines()
      return lines.count == count
    }
    #expect(lines == (0..<count).map { "event value home \($0)" })
    #expect(fixture.request("get home", from: neighbour) == "ok 0")

    #expect(fixture.runUntilDisconnected(sleeper))
    let slept = sleeper.allLines()
    #expect(slept.first == "event value home 0")
    #expect(slept == (0..<slept.count).map { "event value home \($0)" }, "a whole prefix")
    #expect(slept.count < count)
  }

  @Test func oneClientTooManyIsToldAndClosed() throws {
    let fixture = try ServerFixture(maximumClients: 2)
    let first = try fixture.connect()
    let second = try fixture.connect()
    let third = try TestClient(path: fixture.path)
    #expect(fixture.runUntilDisconnected(third))
    #expect(third.allLines() == ["error too many clients"])
    #expect(fixture.request("get home", from: first) == "ok 0")
    #expect(fixture.request("get away", from: second) == "ok 0")

    first.connection.close()
    #expect(fixture.run { fixture.server.clientCount == 1 })
    let fourth = try fixture.connect()
    #expect(fixture.request("get home", from: fourth) == "ok 0")
    #expect(fixture.handler.requests.map(\.client).last == "control client 4")
  }

  @Test func aStaleSocketFileIsReplaced() throws {
    let fixture = try ServerFixture()
    let stale = fixture.folder.path(of: "stale")
    try makeStaleSocket(at: stale)
    let logger = ServerFixture.logger(to: .standardError)
    let server = try ControlServer(
      path: stale, loop: fixture.loop, handler: fixture.handler, logger: logger)
    let client = try TestClient(path: stale)
    #expect(fixture.request("get home", from: client) == "ok 0")
    server.close()
    #expect(access(stale, F_OK) == -1, "close removes the socket file")
  }

  @Test func aLiveSocketIsNotReplaced() throws {
    let fixture = try ServerFixture()
    let logger = ServerFixture.logger(to: .standardError)
    #expect {
      try ControlServer(
        path: fixture.path, loop: fixture.loop, handler: fixture.handler, logger: logger)
    } throws: { error in
      let error = error as? DaemonError
      return error?.exitCode == .unavailable
        && error?.message == "control socket \(fixture.path): another scoreboardd is running "
          + "(it answers on this socket)"
    }
    let client = try fixture.connect()
    #expect(fixture.request("get home", from: client) == "ok 0", "the first one still answers")
  }

  @Test func aFileInTheWayIsNotRemoved() throws {
    let fixture = try ServerFixture()
    let path = fixture.folder.path(of: "file")
    try FileDescriptor.open(path, .writeOnly, options: [.create, .closeOnExec]).close()
    let logger = ServerFixture.logger(to: .standardError)
    #expect {
      try ControlServer(path: path, loop: fixture.loop, handler: fixture.handler, logger: logger)
    } throws: { error in
      (error as? DaemonError)?.message
        == "control socket: \(path) is a regular file, not a socket; it is never removed: "
        + "remove it or choose another path"
    }
    #expect(access(path, F_OK) == 0)
  }

  @Test func closingDisconnectsEveryClientAndRemovesTheSocket() throws {
    let fixture = try ServerFixture()
    let client = try fixture.connect()
    #expect(fixture.request("watch", from: client) == "ok watching")
    fixture.server.close()
    #expect(fixture.runUntilDisconnected(client))
    #expect(access(fixture.path, F_OK) == -1)
    #expect(fixture.server.clientCount == 0)
    fixture.server.broadcast("event blank on")
    fixture.server.close()
  }

  @Test func aHandlerThatClosesTheServerMidRequestIsSafe() throws {
    final class Stopper: ControlHandler {
      weak var server: ControlServer?
      let urgentWorkWaits = false
      func handle(
        _ request: ControlRequest, client: String, answer: @escaping (ControlResponse) -> Void
      ) {
        server?.broadcast("event blank on")
        server?.close()
        answer(.ok(""))
      }
    }
    let fixture = try ServerFixture()
    let stopper = Stopper()
    let path = fixture.folder.path(of: "other")
    let server = try ControlServer(
      path: path, loop: fixture.loop, handler: stopper,
      logger: ServerFixture.logger(to: .standardError))
    stopper.server = server
    let client = try TestClient(path: path)
    client.send("watch\nundo\nundo\n")
    #expect(fixture.runUntilDisconnected(client))
    #expect(client.allLines().first == "ok watching")
    #expect(server.clientCount == 0)
  }
}
