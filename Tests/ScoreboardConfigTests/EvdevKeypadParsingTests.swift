import ScoreboardConfig
import ScoreboardCore
import Testing

/// Evdev keypads read into exact options, for each way of choosing the device and with the
/// defaults of what is not given; keymaps read with the kinds of action they repeat.
@Suite struct EvdevKeypadParsingTests {
  /// The configuration of `GPIOKeypadParsingTests.scoreboard` followed by `text`.
  static func parse(_ text: String) throws -> Configuration {
    try GPIOKeypadParsingTests.parse(text)
  }

  /// The options of the evdev keypad `pad` whose section ends with `lines`.
  static func options(_ lines: String) throws -> EvdevKeypadOptions? {
    let configuration = try parse(
      "[keymap pad]\n[keypad pad]\ndriver = evdev\nkeymap = pad\n" + lines)
    guard case .evdev(let options)? = configuration.keypads.first?.driver else { return nil }
    return options
  }

  @Test func deviceByIDWithDefaults() throws {
    let options = try Self.options(
      "device = /dev/input/by-id/usb-SIGMACHIP_USB_Keyboard-event-kbd\n")

    #expect(
      options
        == EvdevKeypadOptions(
          selector: .path("/dev/input/by-id/usb-SIGMACHIP_USB_Keyboard-event-kbd"), grab: true,
          ignoreNumLock: true, numLockLED: nil, required: false))
  }

  @Test func deviceByPath() throws {
    let path = "/dev/input/by-path/platform-fd500000.pcie-pci-0000:01:00.0-usb-0:1.3:1.0-event-kbd"

    #expect(try Self.options("device = \(path)\n") == EvdevKeypadOptions(selector: .path(path)))
    #expect(
      try Self.options("device = /dev/input/event3\n")
        == EvdevKeypadOptions(selector: .path("/dev/input/event3")))
  }

  @Test(arguments: [
    "/dev/input/by-id/*-event-kbd", "/dev/input/event?", "/dev/input/by-id/usb-[AB]*-event-kbd",
  ])
  func devicePattern(_ pattern: String) throws {
    #expect(
      try Self.options("device = \(pattern)\n") == EvdevKeypadOptions(selector: .glob(pattern)))
  }

  /// The name is taken as written, or from within double or single quotes.
  @Test(arguments: [
    "SIGMACHIP USB Keyboard", "\"SIGMACHIP USB Keyboard\"", "'SIGMACHIP USB Keyboard'",
  ])
  func name(_ value: String) throws {
    #expect(
      try Self.options("name = \(value)\n")
        == EvdevKeypadOptions(selector: .name("SIGMACHIP USB Keyboard")))
  }

  /// Only quotes at both ends are removed.
  @Test func nameWithQuotesInside() throws {
    #expect(
      try Self.options("name = HID \"04d9:1203\" keypad\n")
        == EvdevKeypadOptions(selector: .name("HID \"04d9:1203\" keypad")))
  }

  @Test func everyKey() throws {
    let options = try Self.options(
      """
      name = HID 04d9:1203
      grab = no
      ignore-numlock = off
      numlock-led = On
      required = yes
      """)

    #expect(
      options
        == EvdevKeypadOptions(
          selector: .name("HID 04d9:1203"), grab: false, ignoreNumLock: false, numLockLED: true,
          required: true))
  }

  @Test(arguments: [("on", true), ("off", false), ("leave", nil)] as [(String, Bool?)])
  func numLockLED(_ value: String, _ state: Bool?) throws {
    let options = try Self.options("device = /dev/input/event0\nnumlock-led = \(value)\n")

    #expect(options?.numLockLED == state)
  }

  /// Several evdev keypads at once, each with its own device and keymap.
  @Test func severalKeypads() throws {
    let configuration = try Self.parse(
      """
      [keymap home]
      KEY_KPPLUS = add home +1
      [keymap away]
      KEY_KPPLUS = add away +1
      [keypad home]
      driver = evdev
      keymap = home
      device = /dev/input/by-path/platform-3f980000.usb-usb-0:1.2:1.0-event-kbd
      [keypad away]
      driver = evdev
      keymap = away
      device = /dev/input/by-path/platform-3f980000.usb-usb-0:1.3:1.0-event-kbd
      """)

    #expect(configuration.keypads.map(\.name) == ["home", "away"])
    #expect(configuration.keypads.map(\.keymap.name) == ["home", "away"])
    #expect(
      configuration.keypads.map(\.driver) == [
        .evdev(
          EvdevKeypadOptions(
            selector: .path("/dev/input/by-path/platform-3f980000.usb-usb-0:1.2:1.0-event-kbd"))),
        .evdev(
          EvdevKeypadOptions(
            selector: .path("/dev/input/by-path/platform-3f980000.usb-usb-0:1.3:1.0-event-kbd"))),
      ])
  }

  @Test func repeatDefaultsToSteppingBrightnessAndBackspace() throws {
    let configuration = try Self.parse("[keymap pad]\nKEY_KPPLUS = add home +1\n")

    #expect(configuration.keymaps["pad"]?.repeating == Keymap.defaultRepeating)
    #expect(configuration.keymaps["pad"]?.repeating == [.add, .brightness, .backspace])
  }

  @Test(
    arguments: [
      ("add", [.add]), ("digit  backspace", [.digit, .backspace]),
      ("Brightness ADD next", [.brightness, .add, .next]), ("none", []), ("NONE", []),
    ] as [(String, Set<Action.Kind>)])
  func repeatList(_ value: String, _ kinds: Set<Action.Kind>) throws {
    let configuration = try Self.parse(
      "[keymap pad]\nKEY_KPPLUS = add home +1\nrepeat = \(value)\n")

    #expect(configuration.keymaps["pad"]?.repeating == kinds)
    #expect(
      configuration.keymaps["pad"]?.bindings == [Key("KEY_KPPLUS")!: .add(field: "home", amount: 1)]
    )
  }

  /// `repeat` is a key of the keymap in any case, as key names are, and binds no key.
  @Test func repeatInAnyCase() throws {
    let configuration = try Self.parse("[keymap pad]\nRepeat = undo\n")

    #expect(configuration.keymaps["pad"] == Keymap(name: "pad", bindings: [:], repeating: [.undo]))
  }

  /// Every kind of action can repeat.
  @Test func repeatEveryKind() throws {
    let kinds = Action.Kind.allCases.map(\.rawValue).joined(separator: " ")
    let configuration = try Self.parse("[keymap pad]\nrepeat = \(kinds)\n")

    #expect(configuration.keymaps["pad"]?.repeating == Set(Action.Kind.allCases))
  }
}
