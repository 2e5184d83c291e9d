@preconcurrency import Glibc
import ScoreboardSettings
import Testing

@testable import LinuxIO

/// What the shim hands libgpiod for each kind of line, in libgpiod's own terms: the
/// request type and flags with v1, a gpiod_line_settings object read back with v2.
@Suite struct LibgpiodSettingsTests {
  struct Translation: Sendable, CustomTestStringConvertible {
    var label: String
    var settings: GPIOLineSettings
    var v1: Result<String, Errno>
    var v2: Result<String, Errno>

    var testDescription: String { label }
  }

  /// The v2 description with defaults for what a row does not mention.
  static func v2(
    _ direction: String, edge: String = "NONE", bias: String = "AS_IS",
    drive: String = "PUSH_PULL", activeLow: Bool = false, debounce: Int = 0,
    value: String = "INACTIVE"
  ) -> Result<String, Errno> {
    .success(
      "direction=\(direction) edge=\(edge) bias=\(bias) drive=\(drive) "
        + "active_low=\(activeLow ? 1 : 0) debounce_us=\(debounce) value=\(value)")
  }

  static let translations: [Translation] = [
    Translation(
      label: "push-pull output", settings: .output(),
      v1: .success("request=DIRECTION_OUTPUT flags=0 value=0"), v2: v2("OUTPUT")),
    Translation(
      label: "open-drain active-low output starting active",
      settings: .output(initialValue: true, drive: .openDrain, activeLow: true),
      v1: .success("request=DIRECTION_OUTPUT flags=OPEN_DRAIN|ACTIVE_LOW value=1"),
      v2: v2("OUTPUT", drive: "OPEN_DRAIN", activeLow: true, value: "ACTIVE")),
    Translation(
      label: "open-source output with pull-down",
      settings: GPIOLineSettings(direction: .output, bias: .pullDown, drive: .openSource),
      v1: .success("request=DIRECTION_OUTPUT flags=OPEN_SOURCE|BIAS_PULL_DOWN value=0"),
      v2: v2("OUTPUT", bias: "PULL_DOWN", drive: "OPEN_SOURCE")),
    Translation(
      label: "output ignores edges and debounce",
      settings: GPIOLineSettings(
        direction: .output, edges: .both, debounce: 5_000_000, initialValue: true),
      v1: .success("request=DIRECTION_OUTPUT flags=0 value=1"),
      v2: v2("OUTPUT", value: "ACTIVE")),
    Translation(
      label: "plain input", settings: .input(edges: .none),
      v1: .success("request=DIRECTION_INPUT flags=0 value=0"), v2: v2("INPUT")),
    Translation(
      label: "input ignores drive and value",
      settings: GPIOLineSettings(direction: .input, drive: .openDrain, initialValue: true),
      v1: .success("request=DIRECTION_INPUT flags=0 value=0"), v2: v2("INPUT")),
    Translation(
      label: "active-low button with pull-up, both edges",
      settings: .input(bias: .pullUp, activeLow: true, edges: .both),
      v1: .success("request=EVENT_BOTH_EDGES flags=ACTIVE_LOW|BIAS_PULL_UP value=0"),
      v2: v2("INPUT", edge: "BOTH", bias: "PULL_UP", activeLow: true)),
    Translation(
      label: "rising edges with pull-down", settings: .input(bias: .pullDown, edges: .rising),
      v1: .success("request=EVENT_RISING_EDGE flags=BIAS_PULL_DOWN value=0"),
      v2: v2("INPUT", edge: "RISING", bias: "PULL_DOWN")),
    Translation(
      label: "falling edges, bias disabled", settings: .input(bias: .disabled, edges: .falling),
      v1: .success("request=EVENT_FALLING_EDGE flags=BIAS_DISABLE value=0"),
      v2: v2("INPUT", edge: "FALLING", bias: "DISABLED")),
    Translation(
      label: "kernel debounce of 5 ms",
      settings: .input(bias: .pullUp, edges: .both, debounce: 5_000_000),
      v1: .failure(.notSupported),
      v2: v2("INPUT", edge: "BOTH", bias: "PULL_UP", debounce: 5000)),
    Translation(
      label: "debounce rounded up to whole microseconds",
      settings: .input(edges: .both, debounce: 1_500),
      v1: .failure(.notSupported), v2: v2("INPUT", edge: "BOTH", debounce: 2)),
    Translation(
      label: "debounce of zero is none", settings: .input(edges: .both, debounce: 0),
      v1: .success("request=EVENT_BOTH_EDGES flags=0 value=0"), v2: v2("INPUT", edge: "BOTH")),
  ]

  @Test(arguments: translations)
  func settingsReachLibgpiodAsMeant(_ translation: Translation) {
    let expected = GPIOLibrary.apiGeneration == 1 ? translation.v1 : translation.v2
    let described = Result { try translation.settings.libgpiodDescription() }
      .mapError { $0 as? Errno ?? .ioError }
    #expect(described == expected)
  }
}
