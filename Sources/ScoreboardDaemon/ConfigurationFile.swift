import LinuxIO
import ScoreboardConfig

/// Reads and validates a configuration file.
public enum ConfigurationFile {
  /// The configuration file used when none is named.
  public static let defaultPath = "/etc/scoreboardd/scoreboardd.conf"

  /// Files larger than this are refused rather than read.
  static let maximumSize = 1 << 20

  /// Reads `path` and parses it; `overrides` replace what they name.
  ///
  /// - Throws: `DaemonError` with exit code 78 listing every problem, one per line.
  public static func load(_ path: String, overrides: ServiceOverrides = ServiceOverrides())
    throws(DaemonError) -> Configuration
  {
    let text = try read(path)
    do {
      return overrides.applied(to: try Configuration.parse(text, path: path))
    } catch {
      throw DaemonError(error.description, exitCode: .configuration)
    }
  }

  /// The text of the regular file at `path`; a FIFO, a device or a folder is refused at
  /// once, never waited on.
  private static func read(_ path: String) throws(DaemonError) -> String {
    do {
      let bytes = try FileDescriptor.readRegularFile(path, limit: maximumSize)
      return String(decoding: bytes, as: UTF8.self)
    } catch let error as NotARegularFile {
      throw DaemonError(
        "cannot read the configuration: \(error)", exitCode: .configuration)
    } catch let error as IOError where error.errno == .fileTooLarge {
      throw DaemonError(
        "cannot read the configuration: \(path) is larger than \(maximumSize / 1024) KiB",
        exitCode: .configuration)
    } catch {
      throw DaemonError("cannot read the configuration: \(error)", exitCode: .configuration)
    }
  }
}
