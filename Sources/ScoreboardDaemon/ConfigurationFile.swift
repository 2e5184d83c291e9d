import LinuxIO
import ScoreboardConfig

/// Reads and validates a configuration file.
public enum ConfigurationFile {
  /// The configuration file used when none is named.
  public static let defaultPath = "/etc/scoreboardd/scoreboardd.conf"

  /// Files larger than this are refused rather than read.
  static let maximumSize = 1 << 20

  /// Reads `path` and parses it.
  ///
  /// - Throws: `DaemonError` with exit code 78 listing every problem, one per line.
  public static func load(_ path: String) throws(DaemonError) -> Configuration {
    let text = try read(path)
    do {
      return try Configuration.parse(text, path: path)
    } catch {
      throw DaemonError(error.description, exitCode: .configuration)
    }
  }

  private static func read(_ path: String) throws(DaemonError) -> String {
    do {
      let bytes = try FileDescriptor.readWholeFile(path, limit: maximumSize)
      return String(decoding: bytes, as: UTF8.self)
    } catch {
      throw DaemonError("cannot read the configuration: \(error)", exitCode: .configuration)
    }
  }
}
