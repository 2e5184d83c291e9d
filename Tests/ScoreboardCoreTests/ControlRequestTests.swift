import ScoreboardCore
import Testing

@Suite struct ControlRequestTests {
  @Test(arguments: [
    ("status", ControlRequest.status), ("get home", .get(field: "home")),
    ("set home 12", .set(field: "home", value: "12")),
    ("set period OT", .set(field: "period", value: "OT")),
    ("add home +1", .add(field: "home", amount: 1)),
    ("add away -2", .add(field: "away", amount: -2)),
    ("add home 3", .add(field: "home", amount: 3)),
    ("press KEY_KPENTER", .press(key: Key("KEY_KPENTER")!, keypad: nil)),
    ("press shift+KEY_TAB numpad", .press(key: Key("KEY_TAB", shift: true)!, keypad: "numpad")),
    ("undo", .undo), ("reset", .reset), ("brightness 0", .brightness(.to(0))),
    ("brightness 15", .brightness(.to(15))), ("brightness up", .brightness(.by(1))),
    ("brightness DOWN", .brightness(.by(-1))), ("brightness +3", .brightness(.by(3))),
    ("brightness -2", .brightness(.by(-2))), ("blank on", .blank(true)),
    ("blank Off", .blank(false)), ("watch", .watch), ("help", .help),
    ("  STATUS\t", .status), ("Set\thome  7", .set(field: "home", value: "7")),
    // Words are split at spaces and tabs themselves: one after a tab may start with a
    // combining mark, and the canonical text, with a space, keeps the words apart.
    ("set\t\u{301}a 5", .set(field: "\u{301}a", value: "5")),
    ("horn-hold", .holdHorn(nil)), ("horn-hold siren", .holdHorn("siren")),
    ("horn-release", .releaseHorn(nil)), ("HORN-RELEASE siren", .releaseHorn("siren")),
    ("pair", .pair(fields: nil)), ("pair shot game", .pair(fields: ["shot", "game"])),
    ("pair OFF", .stopPairing), ("devices", .devices), ("unpair scorer", .unpair("scorer")),
    ("unpair all", .unpair("all")),
  ])
  func parses(line: String, request: ControlRequest) throws {
    #expect(try ControlRequest(parsing: line) == request)
    #expect(try ControlRequest(parsing: request.description) == request, "the text parses back")
  }

  @Test(arguments: [
    ("", "expected a command, found nothing; try 'help'"),
    ("  \t ", "expected a command, found nothing; try 'help'"),
    ("quit", "unknown command 'quit'; try 'help'"),
    ("Frobnicate now", "unknown command 'Frobnicate'; try 'help'"),
    ("status now", "'status' takes no argument"), ("undo 2", "'undo' takes no argument"),
    ("reset all", "'reset' takes no argument"), ("watch home", "'watch' takes no argument"),
    ("help me", "'help' takes no argument"),
    ("get", "'get' takes a field, as in 'get home'"),
    ("get home away", "'get' takes a field, as in 'get home'"),
    ("set home", "'set' takes a field and a value, as in 'set home 12'"),
    ("set home 1 2", "'set' takes a field and a value, as in 'set home 12'"),
    ("add home", "'add' takes a field and a signed amount, as in 'add home +1'"),
    ("add +1", "'add' takes a field and a signed amount, as in 'add home +1'"),
    ("add home one", "'add' takes a field and a signed amount, as in 'add home +1'"),
    ("add home +-1", "'add' takes a field and a signed amount, as in 'add home +1'"),
    ("add home 2000000000", "'add' takes a field and a signed amount, as in 'add home +1'"),
    (
      "add home -9223372036854775808",
      "'add' takes a field and a signed amount, as in 'add home +1'"
    ),
    (
      "add home +9223372036854775808",
      "'add' takes a field and a signed amount, as in 'add home +1'"
    ),
    ("press", "'press' takes a key and an optional keypad, as in 'press KEY_KPENTER numpad'"),
    (
      "press KEY_A numpad extra",
      "'press' takes a key and an optional keypad, as in 'press KEY_KPENTER numpad'"
    ),
    (
      "press KEY_NOPE",
      "unknown key 'KEY_NOPE': expected a kernel key name such as KEY_KPENTER or shift+KEY_TAB"
    ),
    (
      "press enter numpad",
      "unknown key 'enter': expected a kernel key name such as KEY_KPENTER or shift+KEY_TAB"
    ),
    ("brightness", "'brightness' takes a level 0-15, up, down, +N or -N"),
    ("brightness 16", "'brightness' takes a level 0-15, up, down, +N or -N"),
    ("brightness max", "'brightness' takes a level 0-15, up, down, +N or -N"),
    ("brightness -9223372036854775808", "'brightness' takes a level 0-15, up, down, +N or -N"),
    ("blank", "'blank' takes on or off"), ("blank toggle", "'blank' takes on or off"),
    ("horn-hold a b", "'horn-hold' takes an optional horn, as in 'horn-hold main'"),
    ("devices all", "'devices' takes no argument"),
    ("unpair", "'unpair' takes a device's name, or all, as in 'unpair scorer'"),
    ("unpair a b", "'unpair' takes a device's name, or all, as in 'unpair scorer'"),
    ("set home 1\u{1B}[2J", "the request contains a control character"),
    ("status\r", "the request contains a control character"),
    ("set home 1\nreset", "the request contains a control character"),
    ("frob\u{95}nicate", "the request contains a control character"),
  ])
  func rejects(line: String, message: String) {
    #expect(throws: ControlSyntaxError(description: message)) {
      try ControlRequest(parsing: line)
    }
  }

  @Test func helpListsEveryCommand() {
    #expect(
      ControlRequest.helpText
        == "commands: status, get FIELD, set FIELD VALUE, add FIELD +N|-N, "
        + "press KEY [KEYPAD], undo, next-period, timeout TEAM, "
        + "penalty add TEAM PLAYER M:SS, penalty end|remove TEAM PLAYER, penalty time TEAM PLAYER M:SS, reset, brightness 0-15|up|down|+N|-N, blank on|off, "
        + "start [CLOCK], stop [CLOCK], start-stop [CLOCK], adjust [CLOCK] +S|-S|+S.t|-S.t, "
        + "reset-clock [CLOCK] [TIME], horn [HORN], horn-hold [HORN], horn-release [HORN], "
        + "pair [FIELD...], pair off, devices, unpair NAME|all, watch, help")
    for syntax in ControlRequest.syntax {
      let command = String(syntax.prefix { $0 != " " })
      do {
        _ = try ControlRequest(parsing: command)
      } catch {
        #expect(!error.description.hasPrefix("unknown command"), "\(syntax)")
      }
    }
  }

  @Test(arguments: [
    (ControlResponse.ok(""), "ok"), (.ok("home 12"), "ok home 12"),
    (.error("no field named 'x'"), "error no field named 'x'"),
    (
      .unsaved("home 12", reason: "cannot write /s: EIO"),
      "unsaved home 12; not saved: cannot write /s: EIO"
    ),
    (.unsaved("", reason: "why; and more"), "unsaved; not saved: why; and more"),
  ])
  func responsesRoundTrip(response: ControlResponse, line: String) throws {
    #expect(response.line == line)
    #expect(try ControlResponse(parsing: line) == response)
  }

  @Test(arguments: [
    "event value home 12", "okay", "", "ERROR x", "unsaved home 12", "unsavedx; not saved: y",
  ])
  func otherLinesAreNotResponses(line: String) {
    #expect(
      throws: ControlSyntaxError(
        description: "expected an answer 'ok ...', 'unsaved ...' or 'error ...', found '\(line)'")
    ) {
      try ControlResponse(parsing: line)
    }
  }
}

@Suite struct ControlEventTests {
  @Test func scoreboardEventsBecomeWatchLines() {
    let spec = Fixtures.spec()
    let lines = [
      ScoreboardEvent.valueChanged(field: "home", from: 3, to: 12),
      .valueChanged(field: "period", from: 3, to: 4), .brightnessChanged(9), .blankChanged(true),
      .blankChanged(false), .editingBegan(field: "home"),
      .editingEnded(field: "home", committed: true), .editingEnded(field: "away", committed: false),
    ].map { ControlEvent($0, spec: spec)?.line }
    #expect(
      lines == [
        "event value home 12", "event value period OT", "event brightness 9", "event blank on",
        "event blank off", "event editing home", "event editing-ended home committed",
        "event editing-ended away cancelled",
      ])
  }

  @Test func watchersAreNotToldAboutTyping() {
    let spec = Fixtures.spec()
    let quiet: [ScoreboardEvent] = [
      .editingChanged(field: "home", text: " 1"), .refused(field: "home"),
      .focusChanged(field: "away"), .resetArmed, .valueChanged(field: "gone", from: 0, to: 1),
    ]
    #expect(quiet.compactMap { ControlEvent($0, spec: spec) }.isEmpty)
  }

  @Test func devicesGoingOfflineAndOnline() {
    #expect(ControlEvent.display(name: "main", online: false).line == "event display main offline")
    #expect(ControlEvent.display(name: "main", online: true).line == "event display main online")
    #expect(
      ControlEvent.keypad(name: "numpad", online: false).line == "event keypad numpad offline")
    #expect(ControlEvent.keypad(name: "numpad", online: true).line == "event keypad numpad online")
  }
}
