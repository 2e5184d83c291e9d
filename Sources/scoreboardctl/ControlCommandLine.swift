import LinuxIO
import ScoreboardCore

/// `scoreboardctl`'s command line: which request to send where, and how to print the
/// answer.
enum ControlCommandLine {
  /// The version `--version` prints, scoreboardd's.
  static let version = ProductVersion.text
  /// The socket used when neither `--socket` nor `SCOREBOARDD_SOCKET` names one:
  /// scoreboardd's default.
  static let defaultSocket = "/run/scoreboardd/control"
  /// How long to wait for the daemon to take the connection, and then for its answer.
  static let timeout = Duration.seconds(5)

  static let usage = """
    Usage: scoreboardctl [--socket PATH] COMMAND [ARGUMENTS]
           scoreboardctl --version | --help

    Queries and drives a running scoreboardd through its control socket.

    Commands:
      status [--json]          every field's value, the brightness, blanking, the field
                               being edited, which displays and keypads are online, and
                               which clocks run and horns sound
      get FIELD                one field's value
      set FIELD VALUE          set a field: a number, or one of a list field's values
      add FIELD +N|-N          add to a field (numbers stop at their limits, lists wrap)
      press KEY [KEYPAD]       press a key (KEY_KPENTER, shift+KEY_TAB) through the keymap
                               of KEYPAD, by default the first keypad
      undo                     revert the last change, or cancel the entry being typed
      next-period              the next period: the quarter moves on, the game clock is
                               loaded with its length, the shot clock reset
      timeout TEAM             a timeout: one fewer left, the game clock stopped, the
                               timeout's clock started
      penalty add TEAM PLAYER M:SS
                               a penalty, counting the game clock's running time
      penalty end TEAM PLAYER  the player's penalty ends now (a power-play goal)
      penalty remove TEAM PLAYER
                               take off a penalty given in error
      penalty time TEAM PLAYER M:SS
                               correct the time left on a penalty
      reset                    reset every field to its default, at once
      brightness 0-15|up|down  set or step the brightness (+N and -N step by N)
      blank on|off             blank or unblank the displays
      start|stop [CLOCK]       start or stop a clock (by default the game clock); the
                               clocks that follow it start and stop with it
      start-stop [CLOCK]       start a stopped clock, stop a running one
      set CLOCK M:SS|SS.t      set a clock (12:00, 0:52.4, 24, 4.9)
      adjust [CLOCK] +S|-S.t   move a stopped clock (adjust game +1, adjust shot -0.1)
      reset-clock [CLOCK] [TIME]  load a clock's reset value (reset-clock shot 14), by
                               default its period length or first reset value
      horn [HORN]              sound a horn for its duration
      pair [--fields F,G]      arm the pairing of a phone with the web console: prints a
                               one-time 6-digit code, which the board's displays show
                               for two minutes; --fields pairs it for those fields only
      pair off                 disarm the code and show the board again
      devices                  list the paired phones and tablets
      unpair NAME|all          forget a paired device, or every one
      watch                    print changes as they happen, until interrupted
      help                     list the commands scoreboardd knows

    Options:
          --socket PATH  the control socket (default: $SCOREBOARDD_SOCKET, or
                         \(defaultSocket))
      -V, --version      print the version and exit
      -h, --help         print this help and exit

    Exit codes: 0 done, 1 scoreboardd refused the request, 64 usage, 69 cannot connect,
    74 connection lost or no answer.
    """

  /// What the command line asks for.
  enum Invocation {
    /// Send `request` to the socket at `socket`; `json` prints a status as JSON.
    case request(ControlRequest, socket: String, json: Bool)
    case version
    case help
  }

  /// Parses the arguments (without the program name).
  ///
  /// - Parameter socketVariable: The value of `SCOREBOARDD_SOCKET`, if set.
  static func parse(_ arguments: [String], socketVariable: String?) throws(ClientError)
    -> Invocation
  {
    var socket: String?
    var remaining = arguments[...]
    while let argument = remaining.first, argument.hasPrefix("-") {
      remaining.removeFirst()
      switch argument {
      case "-h", "--help":
        return .help
      case "-V", "--version":
        return .version
      case "--socket":
        socket = remaining.popFirst() ?? ""
      case _ where argument.hasPrefix("--socket="):
        socket = String(argument.dropFirst("--socket=".count))
      default:
        throw ClientError("unknown option '\(argument)'", exitStatus: .usage)
      }
      if socket?.isEmpty ?? false {
        throw ClientError("--socket needs a path", exitStatus: .usage)
      }
    }
    guard !remaining.isEmpty else {
      throw ClientError("missing command", exitStatus: .usage)
    }
    var words = Array(remaining)
    let json = words.first?.lowercased() == "status" && words.dropFirst().first == "--json"
    if json {
      words.remove(at: 1)
    }
    if words.first?.lowercased() == "pair", let option = words.firstIndex(of: "--fields") {
      guard option + 1 < words.count else {
        throw ClientError("--fields needs field names, as in --fields shot", exitStatus: .usage)
      }
      let fields = words[(option + 1)...].flatMap { $0.split(separator: ",").map(String.init) }
      words = ["pair"] + fields
    }
    let request: ControlRequest
    do {
      request = try ControlRequest(parsing: words.joined(separator: " "))
    } catch {
      throw ClientError(error.description, exitStatus: .usage)
    }
    let variable = socketVariable.flatMap { $0.isEmpty ? nil : $0 }
    return .request(request, socket: socket ?? variable ?? defaultSocket, json: json)
  }

  /// Carries out the command line and returns the exit status.
  ///
  /// - Parameter socketVariable: The value of `SCOREBOARDD_SOCKET`, if set.
  static func run(arguments: [String], socketVariable: String?) -> ExitStatus {
    do {
      switch try parse(arguments, socketVariable: socketVariable) {
      case .help:
        write(usage + "\n", to: .standardOutput)
      case .version:
        write("scoreboardctl \(version)\n", to: .standardOutput)
      case .request(let request, let socket, let json):
        try perform(request, socket: socket, json: json)
      }
      return .success
    } catch {
      write("scoreboardctl: \(error)\n", to: .standardError)
      if error.exitStatus == .usage {
        write("Try 'scoreboardctl --help'.\n", to: .standardError)
      }
      return error.exitStatus
    }
  }

  /// Sends `request` and prints the answer (for `watch`, the events that follow).
  private static func perform(_ request: ControlRequest, socket: String, json: Bool)
    throws(ClientError)
  {
    let client = try ControlClient(path: socket, timeout: timeout)
    try client.send(request.description, timeout: timeout)
    let line = try client.readLine(timeout: timeout)
    let response: ControlResponse
    do {
      response = try ControlResponse(parsing: line)
    } catch {
      throw ClientError("unexpected answer from \(socket): \(error)", exitStatus: .connectionLost)
    }
    let text: String
    var unsavedReason: String?
    switch response {
    case .ok(let answer): text = answer
    case .unsaved(let answer, let reason):
      text = answer
      unsavedReason = reason
    case .error(let message): throw ClientError(message, exitStatus: .refused)
    }
    switch request {
    case .status:
      let status: ControlStatus
      do {
        status = try ControlStatus(parsing: line)
      } catch {
        throw ClientError(
          "unexpected answer from \(socket): \(error)", exitStatus: .connectionLost)
      }
      write((json ? status.json() : plainText(of: status)) + "\n", to: .standardOutput)
    case .watch:
      while true {
        let event = try client.readLine(timeout: nil)
        let eventPrefix = "event "
        write(
          (event.hasPrefix(eventPrefix) ? String(event.dropFirst(eventPrefix.count)) : event)
            + "\n", to: .standardOutput)
      }
    default:
      if !text.isEmpty {
        write(text + "\n", to: .standardOutput)
      }
    }
    if let unsavedReason {
      throw ClientError(
        "the change shows but is not saved: \(unsavedReason)", exitStatus: .unsaved)
    }
  }

  /// One `name value` line per field, then the rest of the status in the same form.
  private static func plainText(of status: ControlStatus) -> String {
    var lines: [String] = status.fields.map { "\($0.name) \($0.text)" }
    lines += [
      "brightness \(status.brightness)", "blank \(status.isBlanked ? "on" : "off")",
      "editing \(status.editing ?? "-")",
    ]
    lines += status.displays.map { "display \($0.name) \($0.isOnline ? "online" : "offline")" }
    lines += status.keypads.map { "keypad \($0.name) \($0.isOnline ? "online" : "offline")" }
    lines.append(stateFileLine(status.stateFile))
    lines += status.clocks.map { "clock \($0.name) \($0.isOn ? "running" : "stopped")" }
    lines += status.horns.map { "horn \($0.name) \($0.isOn ? "on" : "off")" }
    // `period 1 25 20`: a period's points of the score fields, the current one last.
    lines += status.periods.map { "period " + $0.replacingColonAndSlashes() }
    // `set 25 23`: the points of a set won.
    lines += status.sets.map { "set " + $0.replacingColonAndSlashes() }
    if let link = status.mqtt {
      lines.append("mqtt \(link.isConnected ? "connected" : "disconnected")")
      if let stale = link.isStale {
        lines.append("mirror \(stale ? "stale" : "live")")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `state-file saved`, `state-file none` or `state-file failing since TIME`.
  private static func stateFileLine(_ stateFile: ControlStatus.StateFile) -> String {
    switch stateFile {
    case .saved: "state-file saved"
    case .none: "state-file none"
    case .failing(let since): "state-file failing since \(since)"
    }
  }

  private static func write(_ text: String, to output: FileDescriptor) {
    try? output.writeAll(text)
  }
}

extension String {
  /// `1:25/20` as `1 25 20`.
  fileprivate func replacingColonAndSlashes() -> String {
    String(map { $0 == ":" || $0 == "/" ? " " : $0 })
  }
}
