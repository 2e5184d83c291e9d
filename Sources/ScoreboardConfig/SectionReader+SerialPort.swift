extension SectionReader {
  /// A serial port for messages.
  private static let serialPortExample = "/dev/serial0"

  /// One serial port: an absolute path (`/dev/serial0`, `/dev/serial/by-id/...`).
  mutating func serialPort(_ key: String) -> String? {
    guard let value = entry(key)?.value else { return nil }
    let count = value.words().count
    guard count <= 1 else {
      report(
        "expected one serial port, found \(count); only an s7s display takes a port per module",
        key: key)
      return nil
    }
    return path(key, example: Self.serialPortExample)
  }

  /// Serial ports separated by spaces, each an absolute path, each once.
  mutating func serialPorts(_ key: String) -> [String]? {
    guard let value = entry(key)?.value else { return nil }
    let paths = value.words()
    guard !paths.isEmpty else {
      report(
        "expected serial ports separated by spaces, such as \(Self.serialPortExample), "
          + "found nothing", key: key)
      return nil
    }
    var ports: [String] = []
    for path in paths {
      if !path.hasPrefix("/") {
        report(
          "expected an absolute path such as \(Self.serialPortExample), found \"\(path)\"",
          key: key)
      } else if ports.contains(path) {
        report("expected each port once, found \"\(path)\" twice", key: key)
      } else {
        ports.append(path)
      }
    }
    return ports.count == paths.count ? ports : nil
  }
}
