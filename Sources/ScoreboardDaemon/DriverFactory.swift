import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers

/// Builds the drivers each `[display]` and `[keypad]` section names.
enum DriverFactory {
  /// The drivers of one display, each with the cells of the display it shows (several
  /// S7S modules make one display).
  static func displays(
    _ display: DisplayConfiguration, spec: ScoreboardSpec, logger: Logger, at now: Instant
  ) throws(DaemonError) -> [(cells: Range<Int>, driver: any SegmentDisplay)] {
    let whole = 0..<display.cellCount
    switch display.driver {
    case .terminal(let options):
      let layout = DisplayLayout(name: display.name, cellCount: display.cellCount)
      let driver = TerminalDisplay(
        name: display.name, layout: layout, fields: spec.fields(on: display.name),
        footer: options.footer, output: .standardOutput)
      return [(whole, driver)]
    case .s7s(let options):
      return options.ports.enumerated().map { module, port in
        let driver = SerialDisplay(
          name: display.name, path: port, settings: SerialSettings(options.line),
          encoder: SparkFunSerial7Segment(), logger: logger, at: now)
        return ((module * 4)..<(module * 4 + 4), driver)
      }
    case .serialFrame(let options):
      let acknowledgement = options.acknowledgement.map {
        Acknowledgement(timeout: $0.timeout, retries: $0.retries, address: UInt8(options.address))
      }
      let encoder = ControllerFrameProtocol(
        address: UInt8(options.address), acknowledgement: acknowledgement)
      let driver = SerialDisplay(
        name: display.name, path: options.port, settings: SerialSettings(options.line),
        encoder: encoder, logger: logger, at: now)
      return [(whole, driver)]
    case .serialText(let options):
      let driver = SerialDisplay(
        name: display.name, path: options.port, settings: SerialSettings(options.line),
        encoder: TextLineProtocol(template: options.template), logger: logger, at: now)
      return [(whole, driver)]
    case .tm1637, .max7219, .shiftRegister:
      throw DaemonError("display \(display.name): driver not available yet", exitCode: .unavailable)
    }
  }

  static func keypad(_ keypad: KeypadConfiguration) throws(DaemonError) -> any Keypad {
    switch keypad.driver {
    case .terminal(let options):
      do {
        return try TerminalKeypad(name: keypad.name, device: options.device)
      } catch {
        throw DaemonError("keypad \(keypad.name): \(error)", exitCode: .unavailable)
      }
    case .gpioButtons, .gpioMatrix:
      throw DaemonError("keypad \(keypad.name): driver not available yet", exitCode: .unavailable)
    }
  }
}

extension SerialSettings {
  /// The port settings a display section asks for.
  init(_ line: SerialLineOptions) {
    let parity: Parity =
      switch line.parity {
      case .none: .none
      case .even: .even
      case .odd: .odd
      }
    self.init(
      baudRate: line.baudRate, dataBits: line.dataBits, parity: parity, stopBits: line.stopBits,
      flowControl: line.flowControl == .rtsCts ? .rtsCts : .none)
  }
}
