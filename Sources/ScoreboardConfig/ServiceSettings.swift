import ScoreboardSettings

/// How scoreboardd runs as a service: logging, where it keeps the scores, and its
/// control socket (`[scoreboard]` keys `log-level`, `state-file`, `control-socket`,
/// `control-clients`).
public struct ServiceSettings: Hashable, Sendable {
  /// Where the scores are kept when none is configured.
  public static let defaultStateFile = "/var/lib/scoreboardd/state"
  /// Where `scoreboardctl` finds the daemon when none is configured.
  public static let defaultControlSocket = "/run/scoreboardd/control"

  /// How much the daemon logs.
  public var logLevel: LogLevel
  /// The file the scores survive restarts and power cuts in; nil keeps them in memory
  /// only (`state-file = none`).
  public var stateFile: String?
  /// The control socket's path; nil for no control socket (`control-socket = none`).
  public var controlSocket: String?
  /// How many control clients may be connected at once.
  public var maximumControlClients: Int

  public init(
    logLevel: LogLevel = .info, stateFile: String? = ServiceSettings.defaultStateFile,
    controlSocket: String? = ServiceSettings.defaultControlSocket, maximumControlClients: Int = 8
  ) {
    self.logLevel = logLevel
    self.stateFile = stateFile
    self.controlSocket = controlSocket
    self.maximumControlClients = maximumControlClients
  }
}
