@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import Testing

@Suite struct ScoreboardctlTests {
  /// Runs `scoreboardctl` with `arguments` against the fixture's server until it exits.
  static func scoreboardctl(
    _ arguments: [String], against fixture: ServerFixture?, environment: [String: String] = [:]
  ) throws -> (status: CInt?, output: String, error: String) {
    let process = try ControlProcess(arguments, environment: environment)
    let status = process.finish(serving: fixture?.loop)
    return (status, process.standardOutput, process.standardError)
  }

  @Test func statusPrintsOneLinePerField() throws {
    let fixture = try ServerFixture()
    let result = try Self.scoreboardctl(["--socket", fixture.path, "status"], against: fixture)
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output == """
        home 0
        away 0
        period 1
        brightness 8
        blank off
        editing -
        display main online
        keypad numpad online
        state-file saved

        """)
    #expect(result.error.isEmpty)
  }

  @Test func statusAsJSON() throws {
    let fixture = try ServerFixture()
    let result = try Self.scoreboardctl(
      ["--socket=\(fixture.path)", "status", "--json"], against: fixture)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == fixture.handler.status.json() + "\n")
    #expect(result.output.hasPrefix(#"{"fields":{"home":"0","away":"0","period":"1"},"#))
  }

  @Test(arguments: [
    (["get", "home"], "0\n"), (["set", "home", "12"], "home 12\n"),
    (["add", "away", "-2"], "away 0\n"), (["add", "away", "+3"], "away 3\n"),
    (["press", "KEY_KPENTER", "numpad"], "commit\n"), (["undo"], ""), (["reset"], ""),
    (["brightness", "up"], "brightness 9\n"), (["brightness", "4"], "brightness 4\n"),
    (["blank", "on"], "blank on\n"), (["help"], ControlRequest.helpText + "\n"),
  ])
  func commandsPrintTheAnswerWithoutItsPrefix(arguments: [String], output: String) throws {
    let fixture = try ServerFixture()
    let result = try Self.scoreboardctl(["--socket", fixture.path] + arguments, against: fixture)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == output)
    if arguments != ["help"] {
      let request = try ControlRequest(parsing: arguments.joined(separator: " "))
      #expect(fixture.handler.requests.map(\.request) == [request])
    }
  }

  @Test func theSocketComesFromTheEnvironment() throws {
    let fixture = try ServerFixture()
    let result = try Self.scoreboardctl(
      ["get", "period"], against: fixture, environment: ["SCOREBOARDD_SOCKET": fixture.path])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "1\n")
  }

  @Test func anErrorAnswerExits1() throws {
    let fixture = try ServerFixture()
    let result = try Self.scoreboardctl(
      ["--socket", fixture.path, "get", "score"], against: fixture)
    #expect(result.status == 1)
    #expect(result.output.isEmpty)
    #expect(result.error == "scoreboardctl: no field named 'score' (fields: home, away, period)\n")
  }

  @Test(arguments: [
    ([], "scoreboardctl: missing command\n"),
    (["frobnicate"], "scoreboardctl: unknown command 'frobnicate'; try 'help'\n"),
    (["--frobnicate", "status"], "scoreboardctl: unknown option '--frobnicate'\n"),
    (["--socket"], "scoreboardctl: --socket needs a path\n"),
    (["--socket=", "status"], "scoreboardctl: --socket needs a path\n"),
    (
      ["add", "home", "x"],
      "scoreboardctl: 'add' takes a field and a signed amount, as in 'add home +1'\n"
    ),
    (["get", "--json", "home"], "scoreboardctl: 'get' takes a field, as in 'get home'\n"),
    (["set", "home", "1\nreset"], "scoreboardctl: the request contains a control character\n"),
    (
      ["set", "home", "1 2"],
      "scoreboardctl: 'set' takes a field and a value, as in 'set home 12'\n"
    ),
    (["status", "now"], "scoreboardctl: 'status' takes no argument\n"),
  ])
  func usageErrorsExit64WithoutConnecting(arguments: [String], message: String) throws {
    let result = try Self.scoreboardctl(
      ["--socket", "/nonexistent/control"] + arguments, against: nil)
    #expect(result.status == 64)
    #expect(result.error == message + "Try 'scoreboardctl --help'.\n")
    #expect(result.output.isEmpty)
  }

  @Test func cannotConnectExits69() throws {
    let fixture = try ServerFixture()
    let missing = fixture.folder.path(of: "missing")
    let result = try Self.scoreboardctl(["--socket", missing, "status"], against: nil)
    #expect(result.status == 69)
    #expect(
      result.error
        == "scoreboardctl: cannot connect to \(missing): No such file or directory (ENOENT); "
        + "is scoreboardd running?\n")

    let stale = fixture.folder.path(of: "stale")
    try makeStaleSocket(at: stale)
    let refused = try Self.scoreboardctl(["--socket", stale, "status"], against: nil)
    #expect(refused.status == 69)
    #expect(
      refused.error
        == "scoreboardctl: cannot connect to \(stale): Connection refused (ECONNREFUSED); "
        + "is scoreboardd running?\n")
  }

  @Test(
    .enabled(
      if: access("/run/scoreboardd/control", F_OK) != 0,
      "a scoreboardd runs on this machine: its socket is at the default path"))
  func theDefaultSocketIsTheDaemons() throws {
    let result = try Self.scoreboardctl(["status"], against: nil)
    #expect(result.status == 69)
    #expect(
      result.error
        == "scoreboardctl: cannot connect to /run/scoreboardd/control: No such file or "
        + "directory (ENOENT); is scoreboardd running?\n")
  }

  @Test func aConnectionClosedBeforeTheAnswerExits74() throws {
    let fixture = try ServerFixture()
    let listener = try UnixListener(path: fixture.folder.path(of: "other"))
    let process = try ControlProcess(["--socket", listener.path, "status"])
    // Takes the connection and the request, then leaves without an answer.
    let loop = PollLoop()
    var accepted: UnixConnection?
    var request: [UInt8] = []
    loop.watch(listener.fileDescriptor, for: .readable) { _ in
      guard accepted == nil, let connection = try? listener.accept() else { return }
      accepted = connection
      loop.watch(connection.fileDescriptor, for: .readable) { _ in
        var buffer = [UInt8](repeating: 0, count: 64)
        guard let count = try? buffer.withUnsafeMutableBytes({ try connection.read(into: $0) })
        else { return }
        request += buffer[..<count]
        if count == 0 {
          loop.removeWatch(connection.fileDescriptor)
        }
      }
    }
    process.run(serving: loop) { request.last == UInt8(ascii: "\n") }
    #expect(request == Array("status\n".utf8))
    if let accepted {
      loop.removeWatch(accepted.fileDescriptor)
      accepted.close()
    }
    #expect(process.finish(serving: loop) == 74)
    #expect(process.standardError == "scoreboardctl: connection to \(listener.path) lost\n")
  }

  @Test func anAnswerWithoutEndIsRefused() throws {
    let fixture = try ServerFixture()
    let listener = try UnixListener(path: fixture.folder.path(of: "other"))
    let process = try ControlProcess(["--socket", listener.path, "status"])
    // Answers "ok " and then letters for ever, never a line end.
    let loop = PollLoop()
    var accepted: UnixConnection?
    let letters = [UInt8](repeating: UInt8(ascii: "A"), count: 65536)
    var sent = 0
    loop.watch(listener.fileDescriptor, for: .readable) { _ in
      guard accepted == nil, let connection = try? listener.accept() else { return }
      accepted = connection
      _ = Array("ok ".utf8).withUnsafeBytes { try? connection.write($0) }
      loop.watch(connection.fileDescriptor, for: .writable) { _ in
        let written = letters.withUnsafeBytes { try? connection.write($0) }
        sent += written ?? 0
        // Enough past the limit, or the client is gone: stop offering more.
        if written == nil || sent > 2 << 20 {
          loop.removeWatch(connection.fileDescriptor)
        }
      }
    }
    #expect(process.finish(serving: loop) == 74)
    #expect(
      process.standardError
        == "scoreboardctl: \(listener.path) sent a line longer than 1048576 bytes; "
        + "is it scoreboardd?\n")
    if let accepted {
      loop.removeWatch(accepted.fileDescriptor)
      accepted.close()
    }
  }

  @Test func watchPrintsEventsUntilTheConnectionIsLost() throws {
    let fixture = try ServerFixture()
    let process = try ControlProcess(["--socket", fixture.path, "watch"])
    // The server answers `watch` itself; once an event arrives, it is watching.
    #expect(
      process.run(serving: fixture.loop) {
        fixture.server.broadcast(ControlEvent.blank(true).line)
        return process.standardOutput.contains("\n")
      })
    let events = [
      ControlEvent.value(field: "home", text: "12"), .editingEnded(field: "away", committed: false),
      .keypad(name: "numpad", online: false),
    ]
    for event in events {
      fixture.server.broadcast(event.line)
    }
    let expected = "value home 12\nediting-ended away cancelled\nkeypad numpad offline\n"
    #expect(process.run(serving: fixture.loop) { process.standardOutput.hasSuffix(expected) })
    let output = process.standardOutput.dropLast(expected.count).split(separator: "\n")
    #expect(output.allSatisfy { $0 == "blank on" }, "only the events that came before")

    fixture.server.close()
    #expect(process.finish(serving: fixture.loop) == 74)
    #expect(process.standardError == "scoreboardctl: connection to \(fixture.path) lost\n")
  }

  @Test func helpAndVersion() throws {
    let help = try Self.scoreboardctl(["--help"], against: nil)
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("Usage: scoreboardctl [--socket PATH] COMMAND [ARGUMENTS]\n"))
    #expect(help.output.contains("/run/scoreboardd/control"))
    let version = try Self.scoreboardctl(["-V"], against: nil)
    #expect(version.status == 0)
    #expect(version.output == "scoreboardctl \(ProductVersion.text)\n")
  }
}
