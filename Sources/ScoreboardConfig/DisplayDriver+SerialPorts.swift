extension DisplayDriver {
  /// The serial ports the display uses, left to right; none for a terminal, a GPIO or an I²C
  /// display.
  var serialPorts: [String] {
    switch self {
    case .terminal, .tm1637, .tm1638, .max7219, .shiftRegister, .ht16k33: []
    case .s7s(let options): options.ports
    case .serialFrame(let options): [options.port]
    case .serialText(let options): [options.port]
    }
  }
}
