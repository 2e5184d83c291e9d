import ScoreboardSettings

extension S7SDisplayOptions {
  /// The keys of an s7s display.
  static let keys = ["port"] + SerialSettings.keys + ["reinit-interval"]

  /// The baud rates both the S7S (its baud rate command) and Linux can set.
  static let baudRates = [2400, 4800, 9600, 19200, 38400, 57600, 115_200, 500_000, 1_000_000]

  /// Reads the keys of an s7s display; nil when the ports are wrong.
  ///
  /// The S7S firmware takes only 8N1, and the module has no RTS or CTS pin: the other
  /// line keys may only repeat those settings.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let ports = reader.serialPorts("port")
    let line = SerialSettings.parse(
      &reader, baudRates: baudRates,
      expectedBaudRate: "a baud rate both the S7S and Linux support: ")
    let reinitializeInterval = reader.reinitInterval()
    let fixedLine = SerialSettings(baudRate: line.baudRate)
    let settings: [(key: String, matches: Bool, expected: String)] = [
      ("data-bits", line.dataBits == fixedLine.dataBits, "\(fixedLine.dataBits)"),
      ("parity", line.parity == fixedLine.parity, fixedLine.parity.rawValue),
      ("stop-bits", line.stopBits == fixedLine.stopBits, "\(fixedLine.stopBits)"),
      ("flow-control", line.flowControl == fixedLine.flowControl, fixedLine.flowControl.rawValue),
    ]
    for setting in settings where !setting.matches {
      reader.report(
        "expected \(setting.expected) (an S7S talks 8N1 without flow control), "
          + "found \(Listing.found(reader.entry(setting.key)?.value ?? ""))", key: setting.key)
    }
    guard let ports else { return nil }
    return Self(ports: ports, line: line, reinitializeInterval: reinitializeInterval)
  }
}
