/// The kind of device a display is (`driver =`), with the options of that kind.
public enum DisplayDriver: Hashable, Sendable {
  /// Draws the digits in a terminal (`driver = terminal`).
  case terminal(TerminalDisplayOptions)
  /// SparkFun Serial 7-Segment modules, one per serial port (`driver = s7s`).
  case s7s(S7SDisplayOptions)
  /// A controller board that takes framed messages over a serial port
  /// (`driver = serial-frame`).
  case serialFrame(SerialFrameDisplayOptions)
  /// A device that takes a line of text over a serial port (`driver = serial-text`).
  case serialText(SerialTextDisplayOptions)
  /// A TM1637 module on two GPIO lines (`driver = tm1637`).
  case tm1637(TM1637DisplayOptions)
  /// A TM1638 "LED&KEY" board on three GPIO lines, its buttons a keypad when it names a
  /// keymap (`driver = tm1638`).
  case tm1638(TM1638DisplayOptions)
  /// A chain of MAX7219 chips on three GPIO lines (`driver = max7219`).
  case max7219(MAX7219DisplayOptions)
  /// A chain of shift registers, one per cell, on GPIO lines
  /// (`driver = shift-register`).
  case shiftRegister(ShiftRegisterDisplayOptions)
  /// Adafruit HT16K33 backpacks on an I²C bus (`driver = ht16k33`).
  case ht16k33(HT16K33DisplayOptions)
}
