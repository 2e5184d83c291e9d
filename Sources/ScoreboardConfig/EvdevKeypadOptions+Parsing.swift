extension EvdevKeypadOptions {
  /// The keys of an evdev keypad.
  static let keys = ["device", "name", "grab", "ignore-numlock", "numlock-led", "required"]

  /// The values of `numlock-led`.
  private enum NumLockLEDSetting: String, CaseIterable {
    case on, off, leave

    /// The state the LED is set to; nil leaves it as it is.
    var state: Bool? {
      switch self {
      case .on: true
      case .off: false
      case .leave: nil
      }
    }
  }

  /// The characters that make `device` a shell pattern.
  private static let patternCharacters: Set<Character> = ["*", "?", "["]

  /// Reads the keys of an evdev keypad; nil when the device is not chosen, or chosen twice.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let selector = selector(&reader)
    let grab = reader.boolean("grab")
    let ignoreNumLock = reader.boolean("ignore-numlock")
    let numLockLED: NumLockLEDSetting? = reader.choice("numlock-led")
    let required = reader.boolean("required")
    guard let selector else { return nil }
    return Self(
      selector: selector, grab: grab ?? true, ignoreNumLock: ignoreNumLock ?? true,
      numLockLED: numLockLED?.state, required: required ?? false)
  }

  /// `device` or `name`, whichever is given; both or neither are reported.
  private static func selector(_ reader: inout SectionReader) -> Selector? {
    switch (reader.entry("device"), reader.entry("name")) {
    case (let device?, let name?):
      let (earlier, later) = device.line < name.line ? (device, name) : (name, device)
      reader.report(
        "given with '\(earlier.key)' (line \(earlier.line)); a keypad is found by its device "
          + "or by its name, not both", at: later)
      return nil
    case (.some, nil):
      return devicePath(&reader)
    case (nil, .some):
      return keypadName(&reader).map(Selector.name)
    case (nil, nil):
      reader.report(
        "missing required key 'device' or 'name': the keypad's event device "
          + "(ls -l /dev/input/by-id/) or the name the kernel gives it "
          + "(cat /proc/bus/input/devices)")
      return nil
    }
  }

  /// `device`: one absolute path, a pattern when it has `*`, `?` or `[`.
  private static func devicePath(_ reader: inout SectionReader) -> Selector? {
    guard let value = reader.entry("device")?.value else { return nil }
    let count = value.words().count
    guard count <= 1 else {
      reader.report(
        "expected one device, found \(count); each keypad has its own [keypad NAME] section",
        key: "device")
      return nil
    }
    guard let path = reader.path("device", example: "/dev/input/event0") else { return nil }
    guard path.contains(where: patternCharacters.contains) else { return .path(path) }
    if let open = path.lastIndex(of: "["), !path[open...].contains("]") {
      reader.report(
        "expected ']' to close the '[' of the pattern, found \(Listing.found(path))",
        key: "device")
      return nil
    }
    return .glob(path)
  }

  /// `name`: the kernel's name of the keypad, without the quotes around it, if any.
  private static func keypadName(_ reader: inout SectionReader) -> String? {
    guard let value = reader.entry("name")?.value else { return nil }
    var name = Substring(value)
    if let quote = name.first, quote == "\"" || quote == "'" {
      guard name.count >= 2, name.last == quote else {
        reader.report(
          "expected a quote at the end of the name, as at its start, found \(Listing.found(value))",
          key: "name")
        return nil
      }
      name = name.dropFirst().dropLast()
    }
    guard !name.isEmpty else {
      let found = value.isEmpty ? "nothing" : "nothing between the quotes"
      reader.report(
        "expected the name the kernel gives the keypad, as cat /proc/bus/input/devices shows "
          + "it, found \(found)", key: "name")
      return nil
    }
    return String(name)
  }
}
