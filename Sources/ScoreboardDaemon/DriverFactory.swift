import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings

/// Builds the drivers each `[display]` and `[keypad]` section names.
enum DriverFactory {
  /// The drivers of one display, each with the cells of the display it shows (several
  /// S7S modules make one display); `keymaps` has the keymap of a TM1638 board's keypad.
  static func displays(
    _ display: DisplayConfiguration, spec: ScoreboardSpec, keymaps: [String: Keymap] = [:],
    gpio: any GPIOBackend, i2c: any I2CBackend, logger: Logger, clock: any TimeSource,
    terminalIndex: Int = 0, at now: Instant
  ) -> [(cells: Range<Int>, driver: any SegmentDisplay)] {
    let whole = 0..<display.cellCount
    func gpioDisplay(_ lines: [GPIOLine], _ encoder: any GPIOProtocol) -> any SegmentDisplay {
      GPIOSegmentDisplay(
        name: display.name, addresses: lines, encoder: encoder,
        backend: gpio, logger: logger, at: now, clock: clock)
    }
    switch display.driver {
    case .terminal(let options):
      let layout = DisplayLayout(name: display.name, cellCount: display.cellCount)
      let driver = TerminalDisplay(
        name: display.name, layout: layout, fields: spec.fields(on: display.name),
        footer: options.footer, output: .standardOutput,
        firstRow: 1 + terminalIndex * LargeFrameRenderer.height)
      return [(whole, driver)]
    case .s7s(let options):
      return options.ports.enumerated().map { module, port in
        let driver = SerialDisplay(
          name: display.name, path: port, settings: options.line,
          encoder: SparkFunSerial7Segment(), logger: logger, clock: clock,
          reinitializeInterval: options.reinitializeInterval, at: now)
        return ((module * 4)..<(module * 4 + 4), driver)
      }
    case .serialFrame(let options):
      let acknowledgement = options.acknowledgement.map {
        Acknowledgement(timeout: $0.timeout, retries: $0.retries, address: UInt8(options.address))
      }
      let encoder = ControllerFrameProtocol(
        address: UInt8(options.address), acknowledgement: acknowledgement)
      let driver = SerialDisplay(
        name: display.name, path: options.port, settings: options.line,
        encoder: encoder, logger: logger, clock: clock,
        reinitializeInterval: options.reinitializeInterval, at: now)
      return [(whole, driver)]
    case .serialText(let options):
      let driver = SerialDisplay(
        name: display.name, path: options.port, settings: options.line,
        encoder: TextLineProtocol(template: options.template), logger: logger,
        clock: clock, reinitializeInterval: options.reinitializeInterval, at: now)
      return [(whole, driver)]
    case .tm1637(let options):
      let encoder = TM1637Protocol(
        cellCount: display.cellCount, gridOrder: options.gridOrder, colon: options.colon,
        bitDelay: options.bitDelay)
      return [(whole, gpioDisplay([options.clock, options.data], encoder))]
    case .tm1638(let options):
      let encoder = TM1638Protocol(
        cellCount: display.cellCount, gridOrder: options.gridOrder, bitDelay: options.bitDelay)
      let buttons = options.keypad.map { keypad in
        TM1638Board.Buttons(
          keys: keypad.buttons, scanInterval: keypad.scanInterval, debounce: keypad.debounce,
          longPress: keypad.longPress,
          longPressKeys: keymaps[keypad.keymap].map(longPressKeys(of:)) ?? [])
      }
      let board = TM1638Board(
        name: display.name, addresses: [options.strobe, options.clock, options.data],
        encoder: encoder, buttons: buttons, backend: gpio, logger: logger, at: now,
        clock: clock)
      return [(whole, board)]
    case .max7219(let options):
      let encoder = MAX7219Protocol(
        cellCount: display.cellCount,
        digitOrder: options.digitOrder,
        reinitializeInterval: options.reinitializeInterval)
      return [(whole, gpioDisplay([options.data, options.clock, options.load], encoder))]
    case .shiftRegister(let options):
      let encoder = ShiftRegisterProtocol(
        cellCount: display.cellCount, segmentOrder: options.segmentOrder.map(\.segment),
        chainOrder: options.firstRegister,
        invert: options.invert, hasOutputEnable: options.outputEnable != nil)
      let lines =
        [options.data, options.clock, options.latch] + (options.outputEnable.map { [$0] } ?? [])
      return [(whole, gpioDisplay(lines, encoder))]
    case .ht16k33(let options):
      let width = HT16K33Backpack.digitsPerBackpack
      return options.addresses.enumerated().map { index, address in
        let driver = HT16K33Display(
          name: display.name, bus: options.bus, address: address, backpack: options.backpack,
          colon: options.colon, reinitializeInterval: options.reinitializeInterval,
          backend: i2c, logger: logger)
        return ((index * width)..<(index * width + width), driver)
      }
    }
  }

  /// The driver of a keypad; a TM1638 board's is the board `boardNamed` finds, opened as
  /// a display.
  static func keypad(
    _ keypad: KeypadConfiguration, gpio: any GPIOBackend, kernelDebounce: Bool, logger: Logger,
    boardNamed: (String) -> TM1638Board? = { _ in nil }, at now: Instant
  ) throws(DaemonError) -> any Keypad {
    do {
      return try openKeypad(
        keypad, gpio: gpio, kernelDebounce: kernelDebounce, logger: logger,
        boardNamed: boardNamed, at: now)
    } catch let error as DaemonError {
      throw error
    } catch {
      throw DaemonError("keypad \(keypad.name): \(error)", exitCode: .unavailable)
    }
  }

  private static func openKeypad(
    _ keypad: KeypadConfiguration, gpio: any GPIOBackend, kernelDebounce: Bool, logger: Logger,
    boardNamed: (String) -> TM1638Board?, at now: Instant
  ) throws -> any Keypad {
    switch keypad.driver {
    case .terminal(let options):
      return try TerminalKeypad(name: keypad.name, device: options.device)
    case .gpioButtons(let options):
      return try GPIOButtonsKeypad(
        name: keypad.name,
        buttons: options.buttons.map { (key: $0.key, line: $0.line) },
        bias: options.bias, activeLow: options.activeLow, debounce: options.debounce,
        longPress: options.longPress, longPressKeys: longPressKeys(of: keypad.keymap),
        backend: gpio,
        kernelDebounce: kernelDebounce, logger: logger)
    case .gpioMatrix(let options):
      return try GPIOMatrixKeypad(
        name: keypad.name, rows: options.rows,
        columns: options.columns, keys: options.keys,
        debounce: options.debounce, backend: gpio, logger: logger)
    case .evdev(let options):
      let selector: DeviceSelector =
        switch options.selector {
        case .path(let path): .path(path)
        case .glob(let pattern): .glob(pattern)
        case .name(let name): .name(name)
        }
      return try EvdevKeypad(
        name: keypad.name, selector: selector, grab: options.grab,
        ignoreNumLock: options.ignoreNumLock, numLockLED: options.numLockLED,
        required: options.required, logger: logger, at: now)
    case .tm1638:
      guard let board = boardNamed(keypad.name) else {
        throw DaemonError(
          "keypad \(keypad.name): its TM1638 board is not open", exitCode: .unavailable)
      }
      return board
    }
  }

  /// The keys `keymap` binds a long press of, in their short form (`BTN_0`).
  private static func longPressKeys(of keymap: Keymap) -> Set<Key> {
    Set(keymap.bindings.keys.filter(\.long).map { Key($0.code) })
  }
}
