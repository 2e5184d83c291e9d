import ScoreboardCore
import ScoreboardSettings

/// Everything the daemon is configured with: the scoreboard's fields, displays and
/// timings, the devices that show and feed it, and what their keys do.
///
/// It is read from the text of one INI file by `parse(_:path:)`, which checks all of it
/// and reports every problem at once.
public struct Configuration: Hashable, Sendable {
  /// The file the configuration was read from, as given to `parse(_:path:)`.
  public var path: String
  /// The model's configuration: fields in focus order (file order), displays in file
  /// order, and the timings, cursor, brightness and undo depth of `[scoreboard]`.
  public var scoreboard: ScoreboardSpec
  /// Logging, the state file and the control socket (keys of `[scoreboard]`).
  public var service: ServiceSettings
  /// The displays with their drivers, in file order.
  public var displays: [DisplayConfiguration]
  /// The keypads with their drivers and keymaps, in file order.
  public var keypads: [KeypadConfiguration]
  /// Every `[keymap NAME]` section, by name, including those no keypad uses.
  public var keymaps: [String: Keymap]
  /// The horns and buzzers, in file order.
  public var horns: [HornConfiguration]
  /// The venue's MQTT broker and this board's topics there; nil: no MQTT.
  public var mqtt: MQTTSettings?
  /// The board's own web server; nil: none.
  public var web: WebSettings?

  /// Creates a configuration.
  public init(
    path: String, scoreboard: ScoreboardSpec, service: ServiceSettings = ServiceSettings(),
    displays: [DisplayConfiguration], keypads: [KeypadConfiguration], keymaps: [String: Keymap],
    horns: [HornConfiguration] = [], mqtt: MQTTSettings? = nil, web: WebSettings? = nil
  ) {
    self.path = path
    self.scoreboard = scoreboard
    self.service = service
    self.displays = displays
    self.keypads = keypads
    self.keymaps = keymaps
    self.horns = horns
    self.mqtt = mqtt
    self.web = web
  }

  /// Reads and checks a configuration file's text; `path` names the file in diagnostics.
  ///
  /// - Throws: `ConfigurationError` with every problem in the file, in line order.
  public static func parse(_ text: String, path: String) throws(ConfigurationError)
    -> Configuration
  {
    var parser = ConfigurationParser(path: path)
    return try parser.parse(text)
  }
}
