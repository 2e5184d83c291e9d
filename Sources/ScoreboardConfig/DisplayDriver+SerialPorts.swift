extension DisplayDriver {
  /// The serial ports the display uses, left to right; none for a terminal.
  var serialPorts: [String] {
    switch self {
    case .terminal: []
    case .s7s(let options): options.ports
    case .serialFrame(let options): [options.port]
    case .serialText(let options): [options.port]
    }
  }
}
