import ScoreboardSettings

extension SerialFrameDisplayOptions {
  /// The keys of a serial-frame display.
  static let keys =
    ["port"] + SerialSettings.keys + ["address", "ack"] + acknowledgementKeys + ["reinit-interval"]

  /// The keys that tune acknowledgements, which need `ack = yes`.
  private static let acknowledgementKeys = ["ack-timeout", "retries"]

  /// Reads the keys of a serial-frame display; nil when the port is wrong.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let port = reader.serialPort("port")
    let line = SerialSettings.parse(&reader)
    let address = reader.integer("address", in: 0...254)
    let acknowledges = reader.boolean("ack")
    let timeout = reader.duration("ack-timeout", in: .milliseconds(10)...(.seconds(5)))
    let retries = reader.integer("retries", in: 0...10)
    let reinitializeInterval = reader.reinitInterval()
    if reader.entry("ack") == nil || acknowledges == false {
      for key in acknowledgementKeys where reader.entry(key) != nil {
        reader.report(
          "needs ack = yes: without acknowledgements nothing is awaited or retried", key: key)
      }
    }
    guard let port else { return nil }
    let defaults = AcknowledgementOptions()
    let acknowledgement =
      acknowledges == true
      ? AcknowledgementOptions(
        timeout: timeout ?? defaults.timeout, retries: retries ?? defaults.retries) : nil
    return Self(
      port: port, line: line, address: address ?? 0, acknowledgement: acknowledgement,
      reinitializeInterval: reinitializeInterval)
  }
}
