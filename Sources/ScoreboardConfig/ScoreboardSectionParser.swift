import ScoreboardCore
import ScoreboardSettings

/// Reads the `[scoreboard]` section: the cursor, timings, brightness, undo depth, and how
/// the service runs. Every key is optional.
enum ScoreboardSectionParser {
  /// The section's keys.
  static let keys = [
    "cursor", "blink-interval", "edit-timeout", "reset-window", "refusal-flash", "brightness",
    "undo-depth", "log-level", "state-file", "control-socket", "control-clients",
  ]

  /// The settings with defaults for what the section does not give, as a spec without
  /// fields and displays, and the service settings.
  static func parse(_ reader: inout SectionReader) -> (
    spec: ScoreboardSpec, service: ServiceSettings
  ) {
    reader.reportUnknownKeys(known: keys)
    var spec = ScoreboardSpec(fields: [], displays: [])
    if let cursor: ScoreboardSpec.CursorStyle = reader.choice("cursor") {
      spec.cursor = cursor
    }
    if let interval = reader.duration("blink-interval", in: .milliseconds(50)...(.seconds(5))) {
      spec.blinkInterval = interval
    }
    if let timeout = reader.duration(
      "edit-timeout", in: .seconds(1)...(.seconds(3600)), zeroMeansNever: true)
    {
      spec.editTimeout = timeout == .zero ? nil : timeout
    }
    if let window = reader.duration("reset-window", in: .milliseconds(500)...(.seconds(10))) {
      spec.resetWindow = window
    }
    if let flash = reader.duration("refusal-flash", in: .milliseconds(50)...(.seconds(2))) {
      spec.refusalFlash = flash
    }
    if let brightness = reader.integer("brightness", in: 0...Action.maximumBrightness) {
      spec.brightness = brightness
    }
    if let depth = reader.integer("undo-depth", in: 1...1000) {
      spec.undoDepth = depth
    }
    var service = ServiceSettings()
    if let level = reader.choice("log-level", names: LogLevel.allCases.map { ($0.name, $0) }) {
      service.logLevel = level
    }
    if reader.entry("state-file") != nil {
      service.stateFile = reader.optionalPath(
        "state-file", example: ServiceSettings.defaultStateFile)
    }
    if reader.entry("control-socket") != nil {
      service.controlSocket = reader.optionalPath(
        "control-socket", example: ServiceSettings.defaultControlSocket)
    }
    if let clients = reader.integer("control-clients", in: 1...64) {
      service.maximumControlClients = clients
    }
    return (spec, service)
  }
}
