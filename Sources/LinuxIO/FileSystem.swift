@preconcurrency import Glibc

/// Questions about paths: which match a pattern, where a link leads.
public enum FileSystem {
  /// The paths matching the shell pattern `pattern` (`/dev/input/by-id/*-event-kbd`), in
  /// sorted order (glob); empty when none does or a folder cannot be read.
  public static func paths(matching pattern: String) -> [String] {
    var matches = glob_t()
    defer { globfree(&matches) }
    guard SystemCall.glob(pattern, &matches) == 0 else { return [] }
    return (0..<Int(matches.gl_pathc)).compactMap { index in
      matches.gl_pathv[index].map { String(cString: $0) }
    }
  }

  /// The absolute path `path` leads to once every link is followed (realpath), such as
  /// `/dev/input/event7` for a link in `/dev/input/by-id`; nil when it leads nowhere.
  public static func resolvingLinks(_ path: String) -> String? {
    SystemCall.realpath(path)
  }

  /// The folder that holds `path`: `/var/lib/scoreboardd` for `/var/lib/scoreboardd/state`,
  /// `/` for `/state`, `.` for a bare name.
  public static func folder(containing path: String) -> String {
    AtomicFile.split(path).folder
  }
}
