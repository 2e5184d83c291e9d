/// The kind of device a keypad is (`driver =`), with the options of that kind.
public enum KeypadDriver: Hashable, Sendable {
  /// Reads keys typed in a terminal (`driver = terminal`).
  case terminal(TerminalKeypadOptions)
  /// Push buttons, each on its own GPIO line (`driver = gpio-buttons`).
  case gpioButtons(GPIOButtonsKeypadOptions)
  /// A keypad matrix scanned on GPIO lines (`driver = gpio-matrix`).
  case gpioMatrix(GPIOMatrixKeypadOptions)
  /// A keypad the kernel reads, such as a USB numeric keypad, read through its event
  /// device (`driver = evdev`).
  case evdev(EvdevKeypadOptions)
}
