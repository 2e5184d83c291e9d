import ScoreboardConfig

/// Settings of `[scoreboard]` that the command line replaces (`--state-file`,
/// `--control-socket`), for the configuration read at start and at every reload: so
/// that a second scoreboard, or the demo, can run from a shared configuration file with
/// a state file and a socket of its own.
public struct ServiceOverrides: Hashable, Sendable {
  /// The state file, or `.some(nil)` for none; nil keeps the configuration's.
  public var stateFile: String??
  /// The control socket, or `.some(nil)` for none; nil keeps the configuration's.
  public var controlSocket: String??

  /// Overrides of the given settings.
  public init(stateFile: String?? = nil, controlSocket: String?? = nil) {
    self.stateFile = stateFile
    self.controlSocket = controlSocket
  }

  /// `configuration` with these settings in place of its own.
  func applied(to configuration: Configuration) -> Configuration {
    var configuration = configuration
    if let stateFile {
      configuration.service.stateFile = stateFile
    }
    if let controlSocket {
      configuration.service.controlSocket = controlSocket
    }
    return configuration
  }
}
