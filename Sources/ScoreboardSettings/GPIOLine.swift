/// A GPIO line: by its name on any chip, or by chip and offset, as a display or keypad
/// section names it and the GPIO backend requests it.
///
/// Two lines compare equal when they are written the same way once normalised by the
/// configuration: `gpio17` is `GPIO17`, and `0:17`, `gpiochip0:17` and
/// `/dev/gpiochip0:17` are one line. A name and a chip and offset cannot be compared
/// without the hardware: when they are the same line, requesting it a second time fails
/// with EBUSY.
public enum GPIOLine: Hashable, Sendable, CustomStringConvertible {
  /// A line name, looked up on every chip (`GPIO17`: the Raspberry Pi's device tree names
  /// the header pins `GPIO0` to `GPIO27`, whichever chip they are on).
  case name(String)
  /// A chip (a path such as `/dev/gpiochip0`, or a name the backend finds in its device
  /// folder) and the line's offset on it.
  case offset(chip: String, offset: Int)

  /// The line as the configuration writes it: `GPIO17`, `/dev/gpiochip0:17`.
  public var description: String {
    switch self {
    case .name(let name): name
    case .offset(let chip, let offset): "\(chip):\(offset)"
    }
  }
}
