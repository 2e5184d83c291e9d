import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers

/// Builds the driver each `[display]` and `[keypad]` section names.
enum DriverFactory {
  static func display(_ display: DisplayConfiguration, spec: ScoreboardSpec) throws(DaemonError)
    -> any SegmentDisplay
  {
    let layout = DisplayLayout(name: display.name, cellCount: display.cellCount)
    switch display.driver {
    case .terminal(let options):
      return TerminalDisplay(
        name: display.name, layout: layout, fields: spec.fields(on: display.name),
        footer: options.footer, output: .standardOutput)
    case .s7s, .serialFrame, .serialText:
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
    }
  }
}
