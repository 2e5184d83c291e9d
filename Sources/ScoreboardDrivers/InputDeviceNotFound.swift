/// No input device matches an evdev keypad's selector (or none that matches opens).
public struct InputDeviceNotFound: Error, Hashable, Sendable, CustomStringConvertible {
  /// What the keypad looks for.
  public var selector: DeviceSelector
  /// The folder whose event nodes a `.name` selector looks at.
  public var inputDirectory: String
  /// Why a device that was found could not be opened, such as a permission error, if
  /// that happened.
  public var reason: String?

  /// The error of a keypad looking for `selector`, with why a device found did not open.
  public init(selector: DeviceSelector, inputDirectory: String, reason: String? = nil) {
    self.selector = selector
    self.inputDirectory = inputDirectory
    self.reason = reason
  }

  /// `no input device matches /dev/input/by-id/*-event-kbd`; when a device was found but
  /// did not open, why (`open /dev/input/event3: Permission denied (EACCES); add the user
  /// running scoreboardd to the 'input' group`).
  public var description: String {
    switch (selector, reason) {
    case (.path(let path), nil): "no input device at \(path)"
    case (.path, let reason?): reason
    case (.glob(let pattern), nil): "no input device matches \(pattern)"
    case (.glob(let pattern), let reason?):
      "no input device matching \(pattern) opens (\(reason))"
    case (.name(let name), nil): "no input device in \(inputDirectory) is named \"\(name)\""
    case (.name(let name), let reason?):
      "no input device in \(inputDirectory) is named \"\(name)\" (\(reason))"
    }
  }
}
