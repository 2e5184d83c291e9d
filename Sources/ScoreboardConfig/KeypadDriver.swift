/// The kind of device a keypad is (`driver =`), with the options of that kind.
public enum KeypadDriver: Hashable, Sendable {
  /// Reads keys typed in a terminal (`driver = terminal`).
  case terminal(TerminalKeypadOptions)
  /// Push buttons, each on its own GPIO line (`driver = gpio-buttons`).
  case gpioButtons(GPIOButtonsKeypadOptions)
  /// A keypad matrix scanned on GPIO lines (`driver = gpio-matrix`).
  case gpioMatrix(GPIOMatrixKeypadOptions)
  /// The buttons of a TM1638 board, whose `[display NAME]` section names the keymap: the
  /// keypad has the display's name.
  case tm1638(TM1638KeypadOptions)
  /// A keypad the kernel reads, such as a USB numeric keypad, read through its event
  /// device (`driver = evdev`).
  case evdev(EvdevKeypadOptions)
}
