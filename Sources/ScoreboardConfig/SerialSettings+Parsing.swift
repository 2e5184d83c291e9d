import ScoreboardSettings

extension SerialSettings {
  /// The line keys of every serial display driver, besides `port`.
  static let keys = ["baud", "data-bits", "parity", "stop-bits", "flow-control"]

  /// Reads the line keys, with the default of each key that is absent or wrong (a wrong
  /// one is reported). `baudRates` are the rates `baud` may take, and `expectedBaudRate`
  /// says what they are.
  static func parse(
    _ reader: inout SectionReader, baudRates: [Int] = supportedBaudRates,
    expectedBaudRate: String = "a baud rate Linux can set: "
  ) -> Self {
    var line = Self()
    if let baudRate = reader.integer("baud", among: baudRates, expected: expectedBaudRate) {
      line.baudRate = baudRate
    }
    if let dataBits = reader.integer("data-bits", in: 5...8) {
      line.dataBits = dataBits
    }
    if let parity: Parity = reader.choice("parity") {
      line.parity = parity
    }
    if let stopBits = reader.integer("stop-bits", among: [1, 2]) {
      line.stopBits = stopBits
    }
    if let flowControl: FlowControl = reader.choice("flow-control") {
      line.flowControl = flowControl
    }
    return line
  }
}
