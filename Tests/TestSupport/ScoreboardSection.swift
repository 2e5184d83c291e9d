/// The `[scoreboard]` section of a test's configuration: the state file and the control
/// socket in the test's folder, and the log level.
public enum ScoreboardSection {
  /// The section, with its files in `folder`, `log-level = logLevel` if given, and
  /// `extra` lines.
  public static func text(
    in folder: TemporaryFolder, logLevel: String? = nil, extra: String = ""
  ) -> String {
    var lines = [
      "[scoreboard]",
      "state-file = \(folder.path(of: "state"))",
      "control-socket = \(folder.path(of: "control"))",
    ]
    if let logLevel {
      lines.append("log-level = \(logLevel)")
    }
    if !extra.isEmpty {
      lines.append(extra)
    }
    return lines.joined(separator: "\n")
  }
}
