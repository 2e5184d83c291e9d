import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardMQTT

/// `scoreboardd`'s command line: what it asks for, and the exit code it ends with.
public enum CommandLineInterface {
  /// The version `--version` prints.
  public static let version = ProductVersion.text

  static let usage = """
    Usage: scoreboardd [--config FILE] [--state-file FILE|none] [--control-socket PATH|none]
                       [--pair]
           scoreboardd --check-config FILE
           scoreboardd --version | --help

    Runs a seven-segment scoreboard: keypads in, displays out, as the configuration
    file says (default \(ConfigurationFile.defaultPath)).

    Options:
      -c, --config FILE        run with this configuration file
          --state-file FILE    keep the scores in FILE (none: in memory only) instead
                               of the configuration's state-file
          --control-socket PATH
                               listen on PATH (none: no control socket) instead of
                               the configuration's control-socket
          --pair               arm a pairing code for the web console at start, shown
                               on the displays for two minutes and logged (notice)
          --check-config FILE  validate FILE without touching any device; exit 0 when
                               it is valid, 78 with its errors otherwise (the first
                               100, then how many more), or when it has [mqtt] and
                               libmosquitto cannot be loaded
      -V, --version            print the version and exit
      -h, --help               print this help and exit

    Exit codes: 0 stopped by SIGTERM/SIGINT, 64 usage, 69 a required keypad or the
    control socket is unavailable, 70 internal error, 78 configuration error.
    A device that fails while in use is retried or left; the daemon runs on.
    """

  /// What the command line asks for.
  enum Request: Equatable {
    case run(configuration: String, overrides: ServiceOverrides, pair: Bool = false)
    case check(configuration: String)
    case version
    case help
  }

  /// Parses the arguments (without the program name).
  static func parse(_ arguments: [String]) throws(DaemonError) -> Request {
    var configuration: String?
    var check: String?
    var overrides = ServiceOverrides()
    var pair = false
    var request: Request?
    var remaining = arguments[...]
    func value(of option: String) throws(DaemonError) -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("-") || value == "-" else {
        throw DaemonError("\(option) needs a file name", exitCode: .usage)
      }
      return value
    }
    while let argument = remaining.popFirst() {
      var option = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        option = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      switch option {
      case "-c", "--config":
        configuration = inlineValue != nil ? inlineValue : try value(of: option)
      case "--check-config":
        check = inlineValue != nil ? inlineValue : try value(of: option)
      case "--state-file":
        let path = inlineValue != nil ? inlineValue! : try value(of: option)
        overrides.stateFile = .some(path == "none" ? nil : path)
      case "--control-socket":
        let path = inlineValue != nil ? inlineValue! : try value(of: option)
        overrides.controlSocket = .some(path == "none" ? nil : path)
      case "--pair" where inlineValue == nil:
        pair = true
      case "-V", "--version":
        request = .version
      case "-h", "--help":
        request = .help
      default:
        throw DaemonError("unknown argument '\(argument)'", exitCode: .usage)
      }
    }
    if let request {
      return request
    }
    if let check {
      guard configuration == nil, overrides == ServiceOverrides(), !pair else {
        throw DaemonError(
          "--check-config cannot be combined with --config, --state-file, --control-socket "
            + "or --pair",
          exitCode: .usage)
      }
      return .check(configuration: check)
    }
    return .run(
      configuration: configuration ?? ConfigurationFile.defaultPath, overrides: overrides,
      pair: pair)
  }

  /// Carries out the command line and returns the exit code.
  public static func run(arguments: [String]) -> ExitCode {
    let errorOutput = FileDescriptor.standardError
    let request: Request
    do {
      request = try parse(arguments)
    } catch {
      write("scoreboardd: \(error)\nTry 'scoreboardd --help'.\n", to: errorOutput)
      return error.exitCode
    }
    switch request {
    case .help:
      write(usage + "\n", to: .standardOutput)
      return .success
    case .version:
      write(
        "scoreboardd \(version)\n\(GPIOLibrary.description)\n\(MQTTClient.libraryDescription)\n",
        to: .standardOutput)
      return .success
    case .check(let path):
      do {
        let configuration = try ConfigurationFile.load(path)
        func count(_ number: Int, _ noun: String) -> String {
          "\(number) \(noun)\(number == 1 ? "" : "s")"
        }
        let clocks = configuration.scoreboard.fields.filter { $0.isClock }.count
        var parts = [
          count(configuration.scoreboard.fields.count, "field"),
          count(configuration.displays.count, "display"),
          count(configuration.keypads.count, "keypad"),
        ]
        if clocks > 0 {
          parts.append(count(clocks, "clock"))
        }
        if !configuration.horns.isEmpty {
          parts.append(count(configuration.horns.count, "horn"))
        }
        if !configuration.scoreboard.labels.isEmpty {
          parts.append(count(configuration.scoreboard.labels.count, "label"))
        }
        if let mqtt = configuration.mqtt {
          try MQTTLink.checkFiles(mqtt)
          try checkMQTTLibrary(MQTTClient.libraryDescription)
          parts.append(
            mqtt.mirror.map { "mirror of \($0.source) on \(mqtt.brokerURL)" }
              ?? "MQTT \(mqtt.brokerURL) as \(mqtt.baseTopic)")
        }
        if let web = configuration.web {
          try WebLink.checkLibrary()
          _ = try WebLink.readPages(web)
          parts.append("web pages on \(web.listenText)")
        }
        write("\(path): valid (\(parts.joined(separator: ", ")))\n", to: .standardOutput)
        return .success
      } catch {
        write(error.message + "\n", to: errorOutput)
        return error.exitCode
      }
    case .run(let path, let overrides, let pair):
      let logger = Logger(output: errorOutput, programName: "scoreboardd")
      do {
        let configuration = try ConfigurationFile.load(path, overrides: overrides)
        logger.minimumLevel = configuration.service.logLevel
        MonotonicClock.waitWithoutSlack()
        let daemon = try Daemon(
          configuration: configuration, overrides: overrides, gpio: LibgpiodBackend(),
          logger: logger)
        try daemon.run(armingPairing: pair)
        #if STAGE_TIMES
          StageTimes.writeReport()
        #endif
        return .success
      } catch {
        for line in error.message.split(separator: "\n") {
          logger.log(.error, String(line))
        }
        return error.exitCode
      }
    }
  }

  /// Checks that a board with `[mqtt]` can start on this machine: `library`
  /// (`MQTTClient.libraryDescription`) does not say `libmosquitto not loaded: WHY`.
  ///
  /// - Throws: `DaemonError` with exit code 78, as the daemon exits at start without the
  ///   library, naming the package to install.
  static func checkMQTTLibrary(_ library: String) throws(DaemonError) {
    let notLoaded = "libmosquitto not loaded: "
    guard library.hasPrefix(notLoaded) else { return }
    throw DaemonError(
      "[mqtt]: libmosquitto cannot be loaded (\(library.dropFirst(notLoaded.count))); "
        + "a board with [mqtt] needs libmosquitto 2.0 or later (Debian: apt install "
        + "libmosquitto1)", exitCode: .configuration)
  }

  private static func write(_ text: String, to output: FileDescriptor) {
    try? output.writeAll(Array(text.utf8))
  }
}
