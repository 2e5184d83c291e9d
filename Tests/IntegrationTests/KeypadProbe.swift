@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// A keypad of the web tests' board, pressed while hostile clients work on its web
/// server: each press must reach the terminal display, and the time it took (from the
/// key's `write` to the display's line read by the test) is kept, to be printed with
/// the test's results. The web is never to be on a key's way to the display.
final class KeypadProbe {
  let keypad: EvdevScoreboardTests.FakeKeypadDevice
  /// The probe field's value, as the display last showed it.
  private var value = 0
  /// Milliseconds from each key to its line on the display.
  private(set) var samples: [Double] = []

  init(in folder: TemporaryFolder) throws {
    keypad = try EvdevScoreboardTests.FakeKeypadDevice(in: folder)
  }

  /// The sections that add the probe to `WebTests.configuration`: a one-digit field in
  /// the display's last cell, and a keypad that adds 1 to it and takes 1 away.
  var configuration: String {
    """

    [field probe]
    position = 9
    digits = 1

    [keypad probe]
    driver = evdev
    device = \(keypad.path)
    grab = no
    keymap = probe

    [keymap probe]
    KEY_KPPLUS = add probe +1
    KEY_KPMINUS = add probe -1
    """
  }

  /// Presses + (or - at 9) and waits up to 5 s for the display to show the new value;
  /// false when it did not.
  func press(_ daemon: DaemonProcess) -> Bool {
    let up = value < 9
    let start = MonotonicClock.now()
    keypad.tap(up ? EvdevScoreboardTests.kpPlus : Self.kpMinus)
    value += up ? 1 : -1
    let shown = "\(value)"
    guard
      daemon.waitForLine(timeout: 5, where: { $0.hasPrefix("main:") && $0.hasSuffix(shown) })
        != nil
    else { return false }
    samples.append(Double(MonotonicClock.now() - start) / 1e6)
    return true
  }

  /// The keys' times in words: `40 keys, p50 0.31 ms, max 1.20 ms`.
  var summary: String {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return "no key" }
    func text(_ milliseconds: Double) -> String {
      let hundredths = Int((milliseconds * 100).rounded())
      let fraction = hundredths % 100
      return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
    return
      "\(sorted.count) key\(sorted.count == 1 ? "" : "s"), p50 \(text(sorted[sorted.count / 2])), max \(text(sorted.last!))"
  }

  /// Prints the keys' times, for the record of a run.
  func report(_ what: String) {
    print("key to display while \(what): \(summary)")
  }

  static let kpMinus: UInt16 = 74
}
