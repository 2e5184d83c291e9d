import LinuxIO

/// Which input device an evdev keypad reads.
public enum DeviceSelector: Hashable, Sendable {
  /// The device at a path: an event node (`/dev/input/event3`) or, better, a link that
  /// keeps its name when the device comes back under another number
  /// (`/dev/input/by-id/usb-SIGMACHIP_USB_Keyboard-event-kbd`).
  case path(String)
  /// The first device, in sorted order, whose path matches a shell pattern and opens
  /// (`/dev/input/by-id/*-event-kbd`).
  case glob(String)
  /// The first event node of the input folder whose device reports this name
  /// (EVIOCGNAME), such as `SIGMACHIP USB Keyboard`.
  case name(String)

  /// The paths to try, in order.
  func candidatePaths(inputDirectory: String) -> [String] {
    switch self {
    case .path(let path): [path]
    case .glob(let pattern): FileSystem.paths(matching: pattern)
    case .name: FileSystem.paths(matching: "\(inputDirectory)/event*")
    }
  }

  /// The folders where a matching device appears: the input folder, its `by-id` and
  /// `by-path` folders, and the folder of a path or pattern (up to its first wildcard).
  func watchedDirectories(inputDirectory: String) -> [String] {
    var directories = [inputDirectory, "\(inputDirectory)/by-id", "\(inputDirectory)/by-path"]
    let path: String
    switch self {
    case .path(let selected): path = selected
    case .glob(let pattern): path = pattern
    case .name: return directories
    }
    var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
    while let last = components.last, last.contains(where: { "*?[".contains($0) }) {
      components.removeLast()
    }
    let folder = components.joined(separator: "/")
    if !folder.isEmpty, !directories.contains(folder) {
      directories.append(folder)
    }
    return directories
  }
}
